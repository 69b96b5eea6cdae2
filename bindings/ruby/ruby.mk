# SPDX-License-Identifier: MIT
# The Ruby binding (bindings/ruby): `make ruby` builds the C extension against
# $(BUILD)/libjdoc.a into bindings/ruby/lib/jdoc/, `make check-ruby` (run by
# `make test`) runs its minitest suite or says why it is skipped, `make bench-ruby`
# runs bench/ruby/bench.rb, `make ruby-gem` builds a self-contained gem, `make
# ruby-clean` removes what they built.

RUBY        ?= ruby
RUBY_DIR     = bindings/ruby
RUBY_BUILD   = $(BUILD)/ruby
RUBY_SO      = $(RUBY_DIR)/lib/jdoc/jdoc_ext.so
RUBY_EXT_DEP = $(wildcard $(RUBY_DIR)/ext/jdoc/*.c $(RUBY_DIR)/ext/jdoc/*.h) $(RUBY_DIR)/ext/jdoc/extconf.rb include/jdoc.h
RUBY_TESTOPTS ?=
BENCH_RUBY_ARGS ?=

EXTRA_CHECKS += check-ruby

.PHONY: ruby check-ruby bench-ruby ruby-gem ruby-clean
ruby: $(RUBY_SO)

# mkmf's Makefile runs in its own directory, with the parent's make variables
# (CFLAGS=... on the command line) kept away from it.
$(RUBY_SO): $(RUBY_EXT_DEP) $(BUILD)/libjdoc.a
	@mkdir -p $(RUBY_BUILD)/ext
	cd $(RUBY_BUILD)/ext && $(RUBY) $(CURDIR)/$(RUBY_DIR)/ext/jdoc/extconf.rb \
	    --with-jdoc-include=$(CURDIR)/include --with-jdoc-lib=$(abspath $(BUILD)) >extconf.out || \
	    { cat extconf.out mkmf.log; exit 1; }
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -C $(RUBY_BUILD)/ext V=1 >$(RUBY_BUILD)/ext/make.out 2>&1 || \
	    { cat $(RUBY_BUILD)/ext/make.out; exit 1; }
	@grep -i 'warning' $(RUBY_BUILD)/ext/make.out || true
	cp $(RUBY_BUILD)/ext/jdoc_ext.so $@

# libjdoc.a first: with `make -j`, the sub-make below must not build it at the same time.
check-ruby: $(BUILD)/libjdoc.a
	@if ! command -v $(RUBY) >/dev/null 2>&1; then \
	    echo "check-ruby: skipped (ruby not installed: apt-get install ruby-dev ruby-minitest)"; exit 0; fi; \
	if ! $(RUBY) -rrbconfig -e 'exit File.exist?(File.join(RbConfig::CONFIG["rubyhdrdir"], "ruby.h"))'; then \
	    echo "check-ruby: skipped (Ruby headers missing: apt-get install ruby-dev)"; exit 0; fi; \
	if ! $(RUBY) -e 'require "minitest"' >/dev/null 2>&1; then \
	    echo "check-ruby: skipped (minitest missing: apt-get install ruby-minitest)"; exit 0; fi; \
	$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) ruby && \
	$(RUBY) -I$(RUBY_DIR)/lib -I$(RUBY_DIR)/test $(RUBY_DIR)/test/run.rb $(RUBY_TESTOPTS)

# On one CPU like `make bench`; the 200-container workload needs $(BUILD)/gen_docker.
bench-ruby: ruby
	@if command -v taskset >/dev/null 2>&1 && taskset -c $(or $(BENCH_CPU),1) true 2>/dev/null; then \
	    pin="taskset -c $(or $(BENCH_CPU),1)"; else pin=""; fi; \
	echo "$$pin $(RUBY) -I$(RUBY_DIR)/lib bench/ruby/bench.rb --gen $(BUILD)/gen_docker $(BENCH_RUBY_ARGS)"; \
	$$pin $(RUBY) -I$(RUBY_DIR)/lib bench/ruby/bench.rb --gen $(BUILD)/gen_docker $(BENCH_RUBY_ARGS)

# A gem that compiles the library itself: the binding plus a copy of src/ and include/.
ruby-gem:
	rm -rf $(RUBY_BUILD)/gem && mkdir -p $(RUBY_BUILD)/gem
	cp -r $(RUBY_DIR)/ext $(RUBY_DIR)/lib $(RUBY_DIR)/test $(RUBY_DIR)/jdoc.gemspec $(RUBY_BUILD)/gem/
	rm -rf $(RUBY_BUILD)/gem/lib/jdoc/*.so $(RUBY_BUILD)/gem/ext/jdoc/vendor $(RUBY_BUILD)/gem/*.gem
	mkdir -p $(RUBY_BUILD)/gem/ext/jdoc/vendor && cp -r src include LICENSE $(RUBY_BUILD)/gem/ext/jdoc/vendor/
	cd $(RUBY_BUILD)/gem && gem build jdoc.gemspec

# `make clean` removes $(BUILD); the extension copied into lib/ goes with this.
ruby-clean:
	rm -rf $(RUBY_BUILD) $(RUBY_SO)
