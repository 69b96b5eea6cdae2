# SPDX-License-Identifier: MIT
# The gem as a user gets it: `gem build` of the gemspec alone (in a copy of the
# repository), `gem install` into an empty GEM_HOME, `require 'jdoc'` from
# outside the repository; the symbols the extension exports; the version.
require 'helper'
require 'fileutils'
require 'open3'
require 'rbconfig'
require 'tmpdir'

class TestGem < Minitest::Test
  RUBY_DIR = File.expand_path('..', __dir__)
  REPO = File.expand_path('../..', RUBY_DIR)

  def header_version
    File.read(File.join(REPO, 'include/jdoc.h'))[/#define JDOC_VERSION_STRING "([^"]+)"/, 1]
  end

  def in_repo?
    File.exist?(File.join(REPO, 'src/parser.c'))
  end

  def gem_cmd
    [RbConfig.ruby, '-S', 'gem']
  end

  # The binding's folder copied into dir/bindings/ruby, without build products.
  def copy_binding(dir)
    dst = File.join(dir, 'bindings/ruby')
    FileUtils.mkdir_p(dst)
    %w[ext lib test jdoc.gemspec].each { |f| FileUtils.cp_r(File.join(RUBY_DIR, f), dst) }
    FileUtils.rm_rf(Dir[File.join(dst, 'lib/jdoc/*.so'), File.join(dst, 'ext/jdoc/vendor')])
    dst
  end

  def exported(so)
    out, st = Open3.capture2e('nm', '-D', '--defined-only', so)
    skip 'nm not available' unless st.success?
    out.lines.map { |l| l.split.last }.sort
  end

  def test_version_follows_jdoc_h
    skip 'not in the repository' unless in_repo?
    assert_equal header_version, Jdoc::VERSION
    assert_equal header_version, Jdoc::LIBRARY_VERSION
  end

  def test_in_tree_extension_exports_only_its_init
    skip 'symbol check on Linux only' unless RbConfig::CONFIG['host_os'] =~ /linux/
    so = $LOADED_FEATURES.find { |f| f.end_with?('jdoc/jdoc_ext.so') }
    assert so, 'jdoc_ext.so loaded'
    assert_equal ['Init_jdoc_ext'], exported(so)
  end

  def test_gemspec_outside_the_repository_says_what_to_run
    Dir.mktmpdir('jdoc-gem') do |dir|
      src = copy_binding(dir)   # no src/ beside it: nothing to vendor
      out, st = Open3.capture2e(*gem_cmd, 'build', 'jdoc.gemspec', chdir: src)
      refute st.success?, out
      assert_match(/make ruby-gem/, out)
    end
  end

  def test_gem_builds_installs_and_loads
    skip 'not in the repository' unless in_repo?
    skip 'gem install compiles the library: set JDOC_SKIP_GEM=1 to skip' if ENV['JDOC_SKIP_GEM'] == '1'
    Dir.mktmpdir('jdoc-gem') do |dir|
      src = copy_binding(dir)
      %w[src include LICENSE].each { |f| FileUtils.cp_r(File.join(REPO, f), dir) }
      out, st = Open3.capture2e(*gem_cmd, 'build', File.join(src, 'jdoc.gemspec'), chdir: dir)
      assert st.success?, out
      gem = File.join(src, "jdoc-#{header_version}.gem")
      assert File.exist?(gem), out
      home = File.join(dir, 'home')
      env = { 'GEM_HOME' => home, 'GEM_PATH' => home, 'MAKEFLAGS' => '-j2', 'RUBYLIB' => nil, 'RUBYOPT' => nil }
      # unoptimized, to keep the test short: this checks that it builds and loads
      out, st = Open3.capture2e(env, *gem_cmd, 'install', '--local', '--no-document', gem, '--',
                                '--with-optflags=-O0', '--with-debugflags=', chdir: dir)
      assert st.success?, out
      code = 'require "jdoc"; puts $LOADED_FEATURES.grep(/jdoc_ext/).first, Jdoc::VERSION, ' \
             'Jdoc.fetch(%q({"a":[1,2]}), "/a/2").inspect, Jdoc::OjDoc.open("") { |d| d.fetch.inspect }'
      out, st = Open3.capture2e(env, RbConfig.ruby, '-e', code, chdir: Dir.tmpdir)
      assert st.success?, out
      so, version, fetched, empty = out.lines.map(&:chomp)
      assert so.start_with?(home), "loaded #{so}"
      assert_equal [header_version, '[2]', 'nil'], [version, fetched, empty]
      assert_equal ['Init_jdoc_ext'], exported(so) if RbConfig::CONFIG['host_os'] =~ /linux/
    end
  end
end
