# SPDX-License-Identifier: MIT
# `make demo`: generate a 200-container `docker ps` answer, list it through the library
# (demo/demo.c), then ask the tool for one container. Included by cli/cli.mk;
# DEMO_N sets the container count.

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
