# SPDX-License-Identifier: GPL-2.0-or-later
# make check-kernels: the integration tests again on Debian's 6.1 and 6.12 kernels,
# booted under qemu (tests/kernels/README.md). Not part of make check: it downloads
# two kernel packages (~180 MB, kept in the cache) and takes minutes.
KERNEL_HARNESS = tests/kernels/common.sh tests/kernels/fetch.sh tests/kernels/boot.sh \
	tests/kernels/matrix.sh tests/kernels/initramfs-init.sh tests/kernels/guest-init.sh \
	tests/kernels/guest-tests.sh tests/kernels/powercut.sh tests/kernels/powercut-guest.sh \
	tests/kernels/fsync-eio.sh tests/kernels/fsync-eio-guest.sh
EXTRA_DIST += $(KERNEL_HARNESS) tests/kernels/README.md
# CI caches this directory between runs
KERNEL_CACHE = $(abs_top_builddir)/tests/kernels/cache
KERNEL_OUT = $(abs_top_builddir)/tests/kernels/out

check-kernels: all $(check_PROGRAMS)
	bash $(abs_top_srcdir)/tests/kernels/fetch.sh '$(KERNEL_CACHE)'
	rm -rf '$(KERNEL_OUT)'
	$(AM_TESTS_ENVIRONMENT) DIO_KERNEL_CACHE='$(KERNEL_CACHE)' DIO_KERNEL_OUT='$(KERNEL_OUT)' \
		bash $(abs_top_srcdir)/tests/kernels/matrix.sh; m=$$?; \
	$(AM_TESTS_ENVIRONMENT) DIO_KERNEL_CACHE='$(KERNEL_CACHE)' DIO_KERNEL_OUT='$(KERNEL_OUT)' \
		bash $(abs_top_srcdir)/tests/kernels/powercut.sh; p=$$?; \
	$(AM_TESTS_ENVIRONMENT) DIO_KERNEL_CACHE='$(KERNEL_CACHE)' DIO_KERNEL_OUT='$(KERNEL_OUT)' \
		bash $(abs_top_srcdir)/tests/kernels/fsync-eio.sh; e=$$?; \
	test $$m -eq 0 && test $$p -eq 0 && test $$e -eq 0

clean-local: clean-kernels
clean-kernels:
	rm -rf tests/kernels/out
distclean-local: distclean-kernels
distclean-kernels:
	rm -rf tests/kernels/cache
.PHONY: check-kernels clean-kernels distclean-kernels
