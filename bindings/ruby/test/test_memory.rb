# SPDX-License-Identifier: MIT
# The document's input, GC (stress, compaction), allocations, and thread
# confinement: a Jdoc::Doc must never read freed, moved or changed memory.
require 'helper'

class TestMemory < Minitest::Test
  # GC.stress collects at every allocation (about 10 ms each here): small documents keep it short.
  def small_docs
    [
      '{"a":[1,2.5,"x\\u00e9",true,null,{"b":[]}],"c":{"d":"e"},"big":123456789012345678901234567890}',
      '[[1,[2,[3,[4]]]],{"k\\u0065y":"v"}]',
      '[{"Id":"4c01db0b339c","Names":["/db-1"],"Labels":{"com.docker.compose.service":"db"},"Ports":[]}]'
    ]
  end

  def exercise(json)
    Jdoc::Doc.open(json) do |d|
      leaves = []
      d.each_leaf { |x| leaves << [x.where?, x.fetch, x.type, x.local_key] }
      children = []
      d.each_child { |c| children << [c.where?, c.fetch, c.size('')] }
      values = []
      d.each_value { |v| values << v }
      [d.fetch, d.size, d.dump, leaves, children, values, d.values_at('/1', Jdoc::Path.new(''))]
    end
  end

  def test_gc_stress
    docs = small_docs
    want = docs.map { |j| exercise(j) }
    fetched = docs.map { |j| Jdoc.fetch(j, '/1', '/a/6/b', '') }
    begin
      GC.stress = true
      got = docs.map { |j| exercise(j) }
      got_fetch = docs.map { |j| Jdoc.fetch(j, '/1', '/a/6/b', '') }
      errors = 2.times.map { Jdoc::Doc.open('[1,') rescue $! }
    ensure
      GC.stress = false
    end
    assert_equal want, got
    assert_equal fetched, got_fetch
    assert(errors.all? { |e| e.is_a?(Jdoc::ParseError) && e.offset == 3 })
  end

  def test_compaction_does_not_move_the_input
    skip 'GC.compact not available' unless GC.respond_to?(:compact)
    docs = 50.times.map { |i| Jdoc::Doc.open(%([#{i},"s#{i}"])) }   # short: embedded in their String objects
    garbage = 10_000.times.map { |i| "g#{i}" }
    garbage = nil
    if GC.respond_to?(:verify_compaction_references)
      GC.verify_compaction_references(double_heap: true, toward: :empty)
    else
      GC.compact
    end
    docs.each_with_index do |d, i|
      assert_equal [i, "s#{i}"], d.fetch
      d.close
    end
  end

  def test_input_is_private_and_frozen
    s = +'{"a":"abc","b":[1,2]}'
    d = Jdoc::Doc.open(s)
    s.replace('{"a":"xyz","b":[9]}')          # the caller's string changes: the document does not
    s << ' trailing'
    assert_equal({ 'a' => 'abc', 'b' => [1, 2] }, d.fetch)
    big = +JSON.generate({ 'a' => 'v' * 100_000, 'b' => 1 })
    d2 = Jdoc::Doc.open(big)
    big.setbyte(7, 'X'.ord)                   # in place, in a heap buffer
    big.clear
    assert_equal 'v' * 100_000, d2.fetch('/a')
    assert_equal 1, d2.fetch('/b')
    frozen = '{"a":1}'.freeze
    assert_equal 1, Jdoc::Doc.open(frozen) { |x| x.fetch('/a') }
    assert_equal [1], Jdoc.fetch(frozen, '/a')
    assert frozen.frozen?
    d.close
    d2.close
  end

  def test_documents_are_collected_without_close
    # not closed: the GC frees parser, cursor and input
    before = GC.stat(:total_freed_objects)
    200.times { d = Jdoc::Doc.open('[1,2,3]'); d.move('/2') }
    GC.start
    assert_operator GC.stat(:total_freed_objects), :>, before
  end

  def test_fetch_allocates_only_its_results
    info = JdocTest.corpus('docker', 'info.json')
    json = File.exist?(info) ? JdocTest.read(info) : '{"ID":"x","Name":"n","NCPU":2}'
    paths = [Jdoc::Path.new('/ID'), Jdoc::Path.new('/Name')]
    10.times { Jdoc.fetch(json, *paths) }
    n = 1000
    before = GC.stat(:total_allocated_objects)
    n.times { Jdoc.fetch(json, *paths) }
    per_call = (GC.stat(:total_allocated_objects) - before).fdiv(n)
    # the frozen input (a shared String), the result Array and its two Strings
    assert_operator per_call, :<=, 4.5, "#{per_call} objects per call"
    str_paths = ['/ID', '/Name']
    10.times { Jdoc.fetch(json, *str_paths) }
    before = GC.stat(:total_allocated_objects)
    n.times { Jdoc.fetch(json, *str_paths) }
    per_call = (GC.stat(:total_allocated_objects) - before).fdiv(n)
    assert_operator per_call, :<=, 4.5, "#{per_call} objects per call with String paths (compiled once)"
  end

  def test_thread_confinement
    d = Jdoc::Doc.open('{"a":[1,2]}')
    errors = Thread.new do
      %i[fetch where? size].map { |m| (d.public_send(m) rescue $!) } + [(d.close rescue $!)]
    end.value
    assert(errors.all? { |e| e.is_a?(ThreadError) }, errors.inspect)
    assert_match(/thread/, errors.first.message)
    assert_equal [1, 2], d.fetch('/a')   # still usable by its own thread
    f = Fiber.new { d.fetch('/a/2') }    # same thread, another fiber: allowed
    assert_equal 2, f.resume
    d.close
  end

  def test_threads_in_parallel
    big = JSON.generate((1..5000).map { |i| { 'Id' => "id#{i}", 'Names' => ["/c#{i}"], 'Labels' => { 'x' => i.to_s } } })
    assert_operator big.bytesize, :>, 64 * 1024   # parsed without the GVL
    results = 4.times.map do |t|
      Thread.new do
        Array.new(20) do |k|
          i = (t * 20 + k) % 5000 + 1
          a = Jdoc.fetch(big, "/#{i}/Id", "/#{i}/Labels/x")
          b = Jdoc::Doc.open(big) { |d| [d.fetch("/#{i}/Names/1"), d.size] }
          a + b
        end
      end
    end.map(&:value)
    results.each_with_index do |rows, t|
      rows.each_with_index do |row, k|
        i = (t * 20 + k) % 5000 + 1
        assert_equal ["id#{i}", i.to_s, "/c#{i}", 1 + 5000 * 6], row
      end
    end
  end

  def test_deep_nesting_in_a_fiber
    # containers are built without recursion: 1024 levels fit a fiber's small stack
    json = '[' * 1024 + '"x"' + ']' * 1024
    v = Fiber.new { Jdoc::Doc.open(json, &:fetch) }.resume
    depth = 0
    depth += 1 while (v = v.first).is_a?(Array)
    assert_equal 1023, depth
    assert_equal 'x', v
    leaves = Fiber.new { r = []; Jdoc::Doc.open(json) { |d| d.each_leaf { |x| r << x.where?.count('/') } }; r }.resume
    assert_equal [1024], leaves
  end
end
