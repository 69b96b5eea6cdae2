# SPDX-License-Identifier: MIT
# Runs every test_*.rb of this folder in one process (`make check-ruby`).
$LOAD_PATH.unshift(__dir__)
require 'helper'
Dir[File.join(__dir__, 'test_*.rb')].sort.each { |f| require f }
