# SPDX-License-Identifier: MIT
# jdoc.gemspec - `make ruby-gem` builds the gem from a staged copy with the
# library's sources vendored under ext/jdoc/vendor (see ruby.mk).
require_relative 'lib/jdoc/version'

Gem::Specification.new do |s|
  s.name = 'jdoc'
  s.version = Jdoc::VERSION
  s.summary = 'Pull values out of JSON by path, fast: SIMD index, lazy fetch, the Oj::Doc model'
  s.description = 'Jdoc::Doc reads JSON the way Oj::Doc does (paths, a cursor, each_child, each_leaf) ' \
                  'on top of the jdoc C library, which indexes the document with SIMD once and converts ' \
                  'only the values fetched.'
  s.authors = ['jdoc authors']
  s.license = 'MIT'
  s.required_ruby_version = '>= 3.0'
  s.files = Dir['lib/**/*.rb', 'ext/jdoc/*.{c,rb}', 'ext/jdoc/vendor/**/*.{c,h}', 'ext/jdoc/vendor/LICENSE',
                'test/*.rb']
  s.extensions = ['ext/jdoc/extconf.rb']
  s.require_paths = ['lib']
  s.add_development_dependency 'minitest', '>= 5'
  s.add_development_dependency 'oj', '>= 3'
  s.add_development_dependency 'benchmark-ips', '>= 2'
end
