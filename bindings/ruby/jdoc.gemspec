# SPDX-License-Identifier: MIT
# jdoc.gemspec - the gem carries the binding and a copy of the C library's
# sources (ext/jdoc/vendor), which its extconf.rb compiles at install. In the
# repository, `gem build bindings/ruby/jdoc.gemspec` refreshes that copy from
# src/ and include/ itself; `make ruby-gem` does the same in build/ruby/gem.
# The gem's version is the library's (JDOC_VERSION_STRING in jdoc.h).
require 'fileutils'
require_relative 'lib/jdoc/version'

here = File.expand_path(__dir__)
repo = File.expand_path('../..', here)
vendor = File.join(here, 'ext/jdoc/vendor')
if File.exist?(File.join(repo, 'src/parser.c')) && File.exist?(File.join(repo, 'include/jdoc.h'))
  FileUtils.rm_rf(vendor)
  FileUtils.mkdir_p(vendor)
  FileUtils.cp_r([File.join(repo, 'src'), File.join(repo, 'include'), File.join(repo, 'LICENSE')], vendor)
elsif !File.exist?(File.join(vendor, 'include/jdoc.h'))
  abort "jdoc.gemspec: the C library's sources are missing from #{vendor}: run `make ruby-gem` at the " \
        'repository root (it builds build/ruby/gem/jdoc-VERSION.gem), or build this gemspec inside the repository'
end
header = File.read(File.join(vendor, 'include/jdoc.h'))[/#define JDOC_VERSION_STRING "([^"]+)"/, 1]
unless header == Jdoc::VERSION
  abort "jdoc.gemspec: lib/jdoc/version.rb says #{Jdoc::VERSION}, jdoc.h says #{header}: make them agree"
end

# `gem build path/to/jdoc.gemspec` from elsewhere: the files are relative to
# this folder, and the .gem is written here.
unless Dir.pwd == here
  warn "jdoc.gemspec: building in #{here}"
  Dir.chdir(here)
end

Gem::Specification.new do |s|
  s.name = 'jdoc'
  s.version = header
  s.summary = 'Pull values out of JSON by path, fast: SIMD index, lazy fetch, the Oj::Doc model'
  s.description = 'Jdoc::Doc reads JSON the way Oj::Doc does (paths, a cursor, each_child, each_leaf) ' \
                  'on top of the jdoc C library, which indexes the document with SIMD once and converts ' \
                  'only the values fetched.'
  s.authors = ['jdoc authors']
  s.license = 'MIT'
  s.required_ruby_version = '>= 3.0'
  s.files = Dir['lib/**/*.rb', 'ext/jdoc/*.{c,h,rb}', 'ext/jdoc/vendor/**/*.{c,h}', 'ext/jdoc/vendor/LICENSE',
                'test/*.rb', 'test/*.sh']
  s.extensions = ['ext/jdoc/extconf.rb']
  s.require_paths = ['lib']
  s.add_development_dependency 'minitest', '>= 5'
  s.add_development_dependency 'oj', '>= 3'
end
