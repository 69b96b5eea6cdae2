# SPDX-License-Identifier: MIT
# The binding's version (the C library's is Jdoc::LIBRARY_VERSION).
module Jdoc
  VERSION = '0.1.0'
end
