# SPDX-License-Identifier: MIT
# The jdoc command-line tool ($(BUILD)/jdoc), its end-to-end tests (`make check-cli`,
# run by `make test`) and the Docker demo (`make demo`, defined in demo/demo.mk).

CLI_SRC := cli/jdoc.c cli/input.c cli/emit.c cli/feed.c
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)

EXTRA_ALL     += $(BUILD)/jdoc
EXTRA_CHECKS  += check-cli
EXTRA_INSTALL += $(BUILD)/jdoc

$(BUILD)/obj/cli/%.o: cli/%.c
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/jdoc: $(CLI_OBJ) $(BUILD)/libjdoc.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libjdoc.a -lm

# The tests use the generator for realistic Docker input.
.PHONY: check-cli
check-cli: $(BUILD)/jdoc $(BUILD)/gen_docker
	bash tests/cli/run.sh $(BUILD)/jdoc $(BUILD)/gen_docker

-include demo/demo.mk
-include $(CLI_OBJ:.o=.d)

# tests/test_cli_live.c runs the tool of this build (BUILD=build/san: the sanitized one).
$(BUILD)/obj/tests/test_cli_live.o: private JDOC_CFLAGS += -DJDOC_CLI='"$(BUILD)/jdoc"'
$(BUILD)/tests/test_cli_live: $(BUILD)/jdoc

# JSONPath: the compliance suite through the tool (`make check-cli-jsonpath`, run by `make test`)
EXTRA_CHECKS += check-cli-jsonpath
.PHONY: check-cli-jsonpath
$(BUILD)/cli/jsonpath_cts: tests/cli/jsonpath_cts.c tests/jp_dom.h $(BUILD)/libjdoc.a
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) -Wno-missing-prototypes $(CFLAGS) $< -o $@ $(LDFLAGS) $(BUILD)/libjdoc.a -lm
check-cli-jsonpath: $(BUILD)/jdoc $(BUILD)/cli/jsonpath_cts
	@$(BUILD)/cli/jsonpath_cts $(BUILD)/jdoc ../shared/corpus/jsonpath/cts.json; rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ]
