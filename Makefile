# AUHost: `make demo` and `make test` install what is missing, build, and run
# (`make test` also builds and runs Examples/); `make install` builds release and installs.

SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build, the tests and the demo need.
PACKAGES := pkg-config liblilv-dev lv2-dev lilv-utils libjack-jackd2-dev jackd2 \
	libsndfile1-dev libsamplerate0-dev swh-lv2 mda-lv2 fomp so-synth-lv2 x42-plugins graphviz guitarix-lv2 \
	libfluidsynth-dev fluid-soundfont-gm fluidsynth calf-plugins python3-venv python3-pip dragonfly-reverb-lv2

SWIFT ?= swift
CONFIG ?= debug
BIN := .build/$(CONFIG)/auhost

# Where `make install` puts things: PREFIX/bin/auhost, the native units in
# PREFIX/lib/auhost/plugins (an installed auhost looks there: Sources/AUNative/PluginSearchPath.swift),
# the SDK package `auhost new-unit` builds against in PREFIX/share/auhost/sdk, and the
# shipped presets and songs in PREFIX/share/auhost/presets (`auhost run vocal`). DESTDIR
# stages the whole tree elsewhere (packaging); INSTALL_FROM is the build folder copied from.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_FROM ?= .build/release
UNITS := $(notdir $(wildcard Plugins/*))
BINDIR := $(DESTDIR)$(PREFIX)/bin
PLUGINDIR := $(DESTDIR)$(PREFIX)/lib/auhost/plugins
SDKDIR := $(DESTDIR)$(PREFIX)/share/auhost/sdk
PRESETDIR := $(DESTDIR)$(PREFIX)/share/auhost/presets
# AudioToolbox's C API (docs/AUDIOTOOLBOX.md): headers, libAudioToolbox.so, AudioToolbox.pc.
AT_HEADERS := AudioToolbox AudioUnit CoreAudio CoreFoundation CoreServices MacTypes.h AssertMacros.h
INCLUDEDIR := $(DESTDIR)$(PREFIX)/include
LIBDIR := $(DESTDIR)$(PREFIX)/lib
PKGCONFIGDIR := $(LIBDIR)/pkgconfig
# The Swift runtime's folder (the library's RUNPATH): its libFoundation.so has the CF functions.
SWIFT_RUNTIME_DIR = $(shell readelf -d $(INSTALL_FROM)/libAudioToolbox.so 2>/dev/null | sed -n 's/.*runpath: \[\([^:]*\).*/\1/p')

.PHONY: all deps build release demo test install install-files uninstall clean

all: build

# Installs only the packages that are missing; runs apt-get update only then.
deps:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "make: installing missing packages:" $$missing; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

release:
	$(MAKE) build CONFIG=release

demo: build
	@bash scripts/demo.sh $(BIN)

# Builds (debug with the tests, and the release products the release-only tests need: only
# optimized code can show that the render path makes no retain), runs the CPU-bound suites in
# parallel and then the live ones one at a time, builds and runs Examples/, and prints where
# the time went (scripts/test.sh). AUHOST_FUZZ_ITERATIONS=N runs the fuzzers' long mode.
test: deps
	bash scripts/test.sh

install: release
	$(MAKE) install-files INSTALL_FROM=.build/release

# Copies what a build made (INSTALL_FROM) without building: `make install` after `make release`.
install-files:
	install -d $(BINDIR) $(PLUGINDIR) $(SDKDIR)
	install -m 755 $(INSTALL_FROM)/auhost $(BINDIR)/auhost
	install -m 755 $(INSTALL_FROM)/auhost-unit-host $(BINDIR)/auhost-unit-host
	for unit in $(UNITS); do install -m 644 $(INSTALL_FROM)/libAUHost$$unit.so $(PLUGINDIR)/ || exit 1; done
	rm -rf $(SDKDIR)/Sources
	install -m 644 SDK/Package.swift $(SDKDIR)/Package.swift
	cp -RL SDK/Sources $(SDKDIR)/Sources
	chmod -R u+rwX,go+rX,go-w $(SDKDIR)
	install -d $(PRESETDIR)
	install -m 644 Presets/*.json Presets/*.mid $(PRESETDIR)/
	install -d $(INCLUDEDIR) $(PKGCONFIGDIR)
	for header in $(AT_HEADERS); do cp -R include/$$header $(INCLUDEDIR)/ || exit 1; done
	install -m 755 $(INSTALL_FROM)/libAudioToolbox.so $(LIBDIR)/libAudioToolbox.so
	install -m 644 include/auhost.h $(INCLUDEDIR)/auhost.h
	install -m 755 $(INSTALL_FROM)/libAUHostC.so $(LIBDIR)/libauhost.so
	@if [ -z "$(DESTDIR)" ] && python3 -m pip --version >/dev/null 2>&1; then \
		python3 -m pip install --quiet ./python || echo "make: the Python package was not installed; run: pip install ./python (docs/PYTHON.md)"; fi
	printf 'prefix=%s\nincludedir=$${prefix}/include\nlibdir=$${prefix}/lib\n\nName: AudioToolbox\nDescription: Apple'"'"'s AudioToolbox C API over AUHost\nVersion: 1.0.0\nCflags: -I$${includedir} -Wno-multichar\nLibs: -L$${libdir} -Wl,-rpath,$${libdir} -lAudioToolbox -L$(SWIFT_RUNTIME_DIR) -Wl,-rpath,$(SWIFT_RUNTIME_DIR) -lFoundation -lm\n' '$(PREFIX)' > $(PKGCONFIGDIR)/AudioToolbox.pc

uninstall:
	rm -f $(BINDIR)/auhost $(BINDIR)/auhost-unit-host
	rm -f $(foreach unit,$(UNITS),$(PLUGINDIR)/libAUHost$(unit).so)
	rm -rf $(PRESETDIR)
	rm -rf $(SDKDIR) $(foreach header,$(AT_HEADERS),$(INCLUDEDIR)/$(header))
	rm -f $(LIBDIR)/libAudioToolbox.so $(PKGCONFIGDIR)/AudioToolbox.pc
	rm -f $(INCLUDEDIR)/auhost.h $(LIBDIR)/libauhost.so
	-rmdir $(PLUGINDIR) $(DESTDIR)$(PREFIX)/lib/auhost $(DESTDIR)$(PREFIX)/share/auhost 2>/dev/null

clean:
	rm -rf .build
