# SPDX-License-Identifier: MIT
# extconf.rb - makes the Makefile of jdoc_ext.so from every .c file of this
# folder (jdoc_ext.c and the parts it calls). It links a prebuilt libjdoc.a
# (`make ruby`: --with-jdoc-lib/--with-jdoc-include) or, in a gem, compiles the
# library sources vendored under vendor/ with their per-kernel ISA flags. On
# Linux the extension exports Init_jdoc_ext only: no jdoc_* symbol can clash
# with another copy of jdoc in the process.
require 'mkmf'

here = File.expand_path(__dir__)
repo = File.expand_path('../../../..', here)   # the repository root, for in-tree builds
vendor = File.join(here, 'vendor')
lib_given = with_config('jdoc-lib')
use_vendor = File.directory?(vendor) && !lib_given
inc = with_config('jdoc-include') || (use_vendor ? File.join(vendor, 'include') : File.join(repo, 'include'))
libdir = lib_given || File.join(repo, 'build')
archive = File.join(libdir, 'libjdoc.a')

# Ruby's headers are not strict C11; the extension is C11 plus GNU extensions.
$CFLAGS << ' -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers'
$INCFLAGS << " -I#{inc}"
abort "jdoc.h not found in #{inc}" unless File.exist?(File.join(inc, 'jdoc.h'))
have_library('m')
have_func('rb_enc_interned_str', 'ruby/encoding.h')
have_func('rb_ext_ractor_safe', 'ruby.h')
$defs << '-D_GNU_SOURCE'

# The binding's own files: every .c here (a new part builds without a change here).
ext_srcs = Dir.glob('*.c', base: here).sort

if RbConfig::CONFIG['host_os'] =~ /linux/
  File.write('jdoc_ext.map', "{ global: Init_jdoc_ext; local: *; };\n")
  $DLDFLAGS << " -Wl,--version-script=#{File.expand_path('jdoc_ext.map')}"
end

if use_vendor
  # Gem build: the library's sources, copied to vendor/ by the gemspec or by
  # `make ruby-gem`, chosen as the top-level Makefile chooses them.
  src = File.join(vendor, 'src')
  arch = RbConfig::CONFIG['host_cpu']
  # every .c but the table generators (gen_*.c) and the kernels of other CPUs
  files = Dir.glob('**/*.c', base: src).sort.reject do |f|
    File.basename(f).start_with?('gen_') || (f.start_with?('arch/') && !%w[arch/cpu.c arch/dispatch.c arch/scalar.c].include?(f))
  end
  isa = {}
  if arch =~ /x86_64|amd64/
    isa = { 'sse42' => '-msse4.2 -mpclmul -mpopcnt',
            'avx2' => '-mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt',
            'avx512' => '-mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt' }
  elsif arch =~ /aarch64|arm64/
    isa = { 'neon' => '-march=armv8-a+crypto', 'neon_nopmull' => '' }
  end
  files += isa.keys.map { |k| "arch/#{k}.c" }
  names = ext_srcs + files.map { |f| File.basename(f) }
  dup = names.group_by(&:itself).select { |_, v| v.size > 1 }.keys
  abort "extconf.rb: two sources named #{dup.join(', ')}: the objects are built in one folder" unless dup.empty?
  $INCFLAGS << " -I#{src}"
  $srcs = names
  $VPATH.concat(files.map { |f| File.join(src, File.dirname(f)) }.uniq)
  $objs = $srcs.map { |f| f.sub(/\.c\z/, '.o') }
  create_makefile('jdoc/jdoc_ext')
  # ISA flags on the kernel files only, as the top-level Makefile does
  File.open('Makefile', 'a') do |mk|
    isa.each { |k, flags| mk.puts "#{k}.o: CFLAGS += #{flags}" unless flags.empty? }
  end
elsif File.exist?(archive)
  # The archive is linked into the extension; its symbols stay out of the
  # extension's dynamic symbol table.
  $srcs = ext_srcs
  $objs = $srcs.map { |f| f.sub(/\.c\z/, '.o') }
  $LOCAL_LIBS << " #{archive}"
  $LDFLAGS << ' -Wl,--exclude-libs,libjdoc.a' if RbConfig::CONFIG['host_os'] =~ /linux/
  create_makefile('jdoc/jdoc_ext')
else
  abort "libjdoc.a not found in #{libdir}: run `make lib` (or `make ruby`, or `make ruby-gem` for a gem) " \
        'at the repository root, or pass --with-jdoc-lib=DIR --with-jdoc-include=DIR'
end
