# SPDX-License-Identifier: MIT
# Doc#fetch and the other (path = nil) methods compile String paths once, in
# a table of the parser pool (jdoc_ext.c, pc_get): the answers must be those
# of the path parsed each time, whatever the table holds, whichever fiber or
# thread uses the document, and the table must go with its pool.
require 'helper'

class TestPathCache < Minitest::Test
  # Keys that fill the table many times over, nested one level.
  def many_keys_doc(n = 300)
    JSON.generate((0...n).to_h { |i| ["k#{i}", { 'v' => i, 's' => "x#{i}" }] })
  end

  def test_strings_give_the_values_of_compiled_paths
    json = many_keys_doc
    want = (0...300).map { |i| [i, "x#{i}"] }
    3.times do   # the table evicts and recompiles: every round the same answers
      got = Jdoc::Doc.open(json) { |d| (0...300).map { |i| [d.fetch("/k#{i}/v"), d.fetch("k#{i}/s")] } }
      assert_equal want, got
    end
    compiled = Jdoc::Doc.open(json) { |d| (0...300).map { |i| [d.fetch(Jdoc::Path.new("/k#{i}/v")), d.fetch(Jdoc::Path.new("k#{i}/s"))] } }
    assert_equal want, compiled
    Jdoc::Doc.open(json) do |d|
      assert d.exists?('/k7/s')
      refute d.exists?('/k7/t')
      assert_equal String, d.type('/k7/s')
      assert_equal 3, d.size('/k7')
      assert_equal '"x7"', d.dump('/k7/s')
      assert_equal 'x7', d.fetch!('/k7/s')
      assert_raises(Jdoc::PathError) { d.fetch!('/k7/t') }
      assert_equal :dflt, d.fetch('/k7/t', :dflt)
    end
  end

  # Same length, same first and last 8 bytes: the same slot of the table, so
  # only the comparison of the whole key tells them apart.
  def test_paths_that_share_a_slot
    a = 'aaaaaaaXbbbbbbbb'
    b = 'aaaaaaaYbbbbbbbb'
    json = JSON.generate(a => 1, b => 2)
    Jdoc::Doc.open(json) do |d|
      assert_equal [1, 2, 1, 2], ["/#{a}", "/#{b}", "/#{a}", "/#{b}"].map { |p| d.fetch(p) }
      assert_equal [1, 2], [d.fetch(a), d.fetch(b)]
    end
  end

  def test_long_empty_dotdot_and_escaped_paths
    long = 'k' * 80   # longer than a table key: parsed each time
    json = JSON.generate(long => { long => 'deep' }, 'a/b' => 1, 'a' => { 'b' => [10, 20] }, '' => 'empty')
    Jdoc::Doc.open(json) do |d|
      assert_equal 'deep', d.fetch("/#{long}/#{long}")
      assert_equal 'deep', d.fetch("/#{long}/#{long}")
      assert_equal 1, d.fetch('/a\/b')
      assert_equal 20, d.fetch('/a/b/2')
      assert_equal 'empty', d.fetch('//')
      assert_equal d.fetch, d.fetch('')
      assert_equal 10, d.fetch('/a/b/../b/1')   # ".." within the path, from the root
      d.move('/a/b')
      assert_equal({ 'b' => [10, 20] }, d.fetch('..'))   # ".." above the cursor: through it
      assert_equal 20, d.fetch('../b/2')
      assert_equal 10, d.fetch('1')                      # relative to the cursor
      assert_equal 10, d.fetch('/a/b/1')
    end
    assert_raises(ArgumentError) { Jdoc::Doc.open(json) { |d| d.fetch("/a\0b") } }
  end

  # A document opened in a fiber that has ended, and one whose thread has died
  # (its pool collected): the table lives as long as a document holds the pool.
  def test_documents_outliving_their_fiber_and_thread
    json = many_keys_doc(100)
    d1 = Fiber.new { Jdoc::Doc.open(json).tap { |d| d.fetch('/k1/v') } }.resume
    d2 = Thread.new { Jdoc::Doc.open(json).tap { |d| d.fetch('/k2/v') } }.value
    GC.start
    GC.start
    [d1, d2].each do |d|
      assert_equal (0...100).to_a, (0...100).map { |i| d.fetch("/k#{i}/v") }
      d.close
    end
  end

  # Two fibers switching inside their blocks on documents of the same pool,
  # with paths that evict each other: each fetch answers for its own path.
  def test_fibers_switching_inside_blocks
    a = 'aaaaaaaXbbbbbbbb'
    b = 'aaaaaaaYbbbbbbbb'
    json = JSON.generate(a => 'A', b => 'B')
    d1 = Jdoc::Doc.open(json)
    d2 = Jdoc::Doc.open(json)
    f = Fiber.new do
      r = [d1.fetch("/#{a}")]
      Fiber.yield
      r << d1.fetch("/#{a}")
    end
    f.resume
    other = Fiber.new { Jdoc::Doc.open(json) { |d| d.fetch("/#{b}") } }.resume
    assert_equal ['B', 'B'], [d2.fetch("/#{b}"), other]
    assert_equal %w[A A], f.resume
    d1.close
    d2.close
  end

  # Each thread's pool (and its table) is freed when the thread is gone.
  def test_threads_that_die_free_their_table
    skip 'no /proc/self/status' unless File.exist?('/proc/self/status')
    code = <<~'RUBY'
      require 'jdoc'
      json = '{"Id":"x","State":{"Status":"running"}}'
      rss = -> { File.read('/proc/self/status')[/VmRSS:\s+(\d+)/, 1].to_i }
      run = lambda do |n|
        n.times do |t|
          Thread.new do
            Jdoc::Doc.open(json) { |d| 40.times { |i| d.fetch("/State/Status/#{t}/#{i}") } }
          end.join
        end
        GC.start
      end
      run.call(500)
      before = rss.call
      run.call(4000)
      puts rss.call - before
    RUBY
    out = IO.popen([RbConfig.ruby, '-I', File.expand_path('../lib', __dir__), '-e', code], &:read)
    assert $?.success?, out
    assert_operator out.to_i, :<, 8 * 1024, "RSS grew by #{out.to_i} KB over 4000 threads"
  end
end
