# SPDX-License-Identifier: MIT
# `make check-docker`: jdoc against a real Docker Engine (tests/docker/run.sh).
# Run by .ci/run, not by `make test`: it needs root, docker.io, busybox-static,
# curl and python3, and skips with the reason where dockerd cannot start.

$(BUILD)/docker/check_api: tests/docker/check_api.c $(BUILD)/libjdoc.a
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) -Wno-missing-prototypes $(CFLAGS) $< -o $@ $(LDFLAGS) $(BUILD)/libjdoc.a -lm

.PHONY: check-docker
check-docker: $(BUILD)/jdoc $(BUILD)/docker/check_api
	bash tests/docker/run.sh $(BUILD)/jdoc $(BUILD)/docker/check_api
