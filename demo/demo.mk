# SPDX-License-Identifier: MIT
# `make demo`: generate a 200-container `docker ps` answer, list it through the library
# (demo/demo.c), then ask the tool for one container. Included by cli/cli.mk;
# DEMO_N sets the container count. `make check-demo-doc` (run by `make test`) checks
# that docs/cli.md shows what the demo prints.

DEMO_N ?= 200
DEMO_DIR = $(BUILD)/demo

EXTRA_ALL += $(BUILD)/gen_docker $(BUILD)/jdoc_demo

$(BUILD)/gen_docker: demo/gen_docker.c
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) $< -o $@ $(LDFLAGS)

$(BUILD)/jdoc_demo: demo/demo.c $(BUILD)/libjdoc.a
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) $< -o $@ $(LDFLAGS) $(BUILD)/libjdoc.a -lm

.PHONY: demo
demo: $(BUILD)/gen_docker $(BUILD)/jdoc_demo $(BUILD)/jdoc
	@mkdir -p $(DEMO_DIR)
	$(BUILD)/gen_docker list $(DEMO_N) > $(DEMO_DIR)/containers.json
	$(BUILD)/jdoc_demo $(DEMO_DIR)/containers.json
	@echo
	$(BUILD)/jdoc -r $(DEMO_DIR)/containers.json /1/Names/1 /1/State /1/Labels/com.docker.compose.service

# docs/cli.md shows the demo's output: it must match, but for the times and the kernel's name.
DEMO_MASK = sed -e 's/[0-9][0-9.]* \(us\|ns\)/N \1/g' -e 's/kernel [a-z0-9_]*/kernel K/'
EXTRA_CHECKS += check-demo-doc
.PHONY: check-demo-doc
check-demo-doc: $(BUILD)/gen_docker $(BUILD)/jdoc_demo $(BUILD)/jdoc
	@mkdir -p $(DEMO_DIR)
	@$(BUILD)/gen_docker list 200 > $(DEMO_DIR)/doc.json
	@{ $(BUILD)/jdoc_demo $(DEMO_DIR)/doc.json && echo && \
	   $(BUILD)/jdoc -r $(DEMO_DIR)/doc.json /1/Names/1 /1/State /1/Labels/com.docker.compose.service; } | \
	    $(DEMO_MASK) > $(DEMO_DIR)/doc.got
	@awk '/^## The demo/{f=1} f && /^```$$/{if(g)exit; g=1; next} g' docs/cli.md | $(DEMO_MASK) > $(DEMO_DIR)/doc.want
	@diff -u $(DEMO_DIR)/doc.want $(DEMO_DIR)/doc.got && echo "check-demo-doc: 1 passed, 0 failed"

# The generator writes the same bytes everywhere: the SHA-256 of some answers, recorded
# in demo/gen_docker.sums ("SUM  ARGS" lines; regenerate them only on purpose).
EXTRA_CHECKS += check-gen-docker
.PHONY: check-gen-docker
check-gen-docker: $(BUILD)/gen_docker
	@bad=0; while read -r sum args; do \
	    got=$$($(BUILD)/gen_docker $$args | sha256sum | cut -d' ' -f1); \
	    [ "$$got" = "$$sum" ] || { echo "check-gen-docker: gen_docker $$args: $$got, recorded $$sum"; bad=1; }; \
	done < demo/gen_docker.sums; [ $$bad = 0 ] && echo "check-gen-docker: $$(wc -l < demo/gen_docker.sums) passed, 0 failed"
