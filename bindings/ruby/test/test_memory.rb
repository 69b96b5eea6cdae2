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
      [d.fetch, d.size, d.dump, leaves, children, values, d.values_at('/1', Jdoc::Path.new('')),
       d.pluck('', Jdoc::Path.new('1'))]
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

  # ---- memory the GC knows about, threads that die, Ractors, encodings ----

  def test_parser_memory_is_counted
    require 'objspace'
    json = JSON.generate((1..2000).map { |i| { 'Id' => "id#{i}", 'n' => [i, i + 1] } })
    d = Jdoc::Doc.open(json)
    # the parser's index and buffers: several bytes per byte of input
    assert_operator ObjectSpace.memsize_of(d), :>, json.bytesize, 'memsize_of counts the parser'
    d.close
    assert_operator ObjectSpace.memsize_of(d), :<, 1024
  end

  # 300,000 documents of a 12.6 KB container inspect, never closed: the GC
  # knows what their parsers hold, collects them and takes the parsers back.
  def test_unclosed_documents_stay_under_a_fixed_rss
    skip 'no /proc/self/status' unless File.exist?('/proc/self/status')
    file = JdocTest.corpus('docker', 'container_inspect.json')
    code = <<~RUBY
      require 'jdoc'
      json = #{File.exist?(file) ? "File.binread(#{file.dump})" : "JSON.generate({ 'Id' => 'x', 'a' => ['y' * 40] * 300 })"}
      300_000.times { Jdoc::Doc.open(json).fetch('/Id') }
      puts File.read('/proc/self/status')[/VmHWM:\\s+(\\d+)/, 1].to_i / 1024
    RUBY
    out = IO.popen([RbConfig.ruby, '-I', File.expand_path('../lib', __dir__), '-rjson', '-e', code], &:read)
    assert $?.success?, out
    assert_operator out.to_i, :>, 0, out
    assert_operator out.to_i, :<, 120, "peak RSS #{out.to_i} MB after 300,000 unclosed documents"
  end

  # pluck plans its paths once into a path set held by a hidden object: one
  # that raises part way (a bad number in the 40th element) leaves the set to
  # the GC, 200,000 times within a fixed RSS (a set is about 3.6 KB).
  def test_plucks_that_raise_stay_under_a_fixed_rss
    skip 'no /proc/self/status' unless File.exist?('/proc/self/status')
    code = <<~RUBY
      require 'jdoc'
      json = '[' + (['{"x":1}'] * 39 + ['{"x":01}']).join(',') + ']'
      paths = ['x', 'y'].map { |s| Jdoc::Path.new(s) }
      n = 0
      Jdoc::Doc.open(json) { |d| 200_000.times { begin; d.pluck(*paths); rescue Jdoc::ParseError; n += 1; end } }
      puts n, File.read('/proc/self/status')[/VmHWM:\\s+(\\d+)/, 1].to_i / 1024
    RUBY
    out = IO.popen([RbConfig.ruby, '-I', File.expand_path('../lib', __dir__), '-e', code], &:read)
    assert $?.success?, out
    raised, mb = out.split.map(&:to_i)
    assert_equal 200_000, raised, out
    assert_operator mb, :>, 0, out
    assert_operator mb, :<, 120, "peak RSS #{mb} MB after 200,000 plucks that raised"
  end

  def test_document_of_a_dead_thread
    d = Thread.new { Jdoc::Doc.open('{"a":[1,2]}') }.value   # its thread is gone
    assert_equal [1, 2], d.fetch('/a')                         # taken over by this thread
    d.close
    assert d.closed?
    d2 = Thread.new { Jdoc::Doc.open('[1]') }.value
    Thread.new { d2.close }.join                               # closed by a third thread
    assert d2.closed?
    live = Jdoc::Doc.open('[1]')
    assert_raises(ThreadError) { Thread.new { Thread.current.report_on_exception = false; live.close }.join }   # an owner alive keeps it
    live.close
  end

  def test_ractor
    skip 'no Ractor' unless defined?(Ractor)
    verbose, Warning[:experimental] = Warning[:experimental], false
    json = '{"Id":"abc","Names":["/web-1"],"State":{"Status":"running"}}'.freeze
    path = Ractor.make_shareable(Jdoc::Path.new('/State/Status'))
    rs = 2.times.map do
      Ractor.new(json, path) do |j, pa|
        a = Jdoc.fetch(j, '/Id', pa)
        b = Jdoc::Doc.open(j) { |d| [d.fetch('/Names/1'), d.size] }
        c = Jdoc::OjDoc.open('') { |d| d.fetch }
        e = Jdoc.parse(j).dig('State', 'Status')
        a + b + [c, Jdoc::Path.new('/x').to_s, e]
      end
    end
    rs.each { |r| assert_equal ['abc', 'running', '/web-1', 6, nil, '/x', 'running'], r.take }
  ensure
    Warning[:experimental] = verbose if defined?(Ractor)
  end

  def test_utf16_paths_are_converted
    json = '{"Id":"abc","Caf\u00e9":{"b":[10,20]}}'
    %w[UTF-16LE UTF-16BE UTF-32LE ISO-8859-1].each do |enc|
      p = '/Café/b/2'.encode(enc)
      assert_equal [20], Jdoc.fetch(json, p), enc
      assert_equal 20, Jdoc::Doc.open(json) { |d| d.fetch(p) }, enc
      assert_equal 20, Jdoc::Doc.open(json) { |d| d.move(p); d.fetch }, enc
      assert_equal [20], Jdoc.fetch(json, Jdoc::Path.new(p)), enc
      assert_nil Jdoc::Doc.open(json) { |d| d.fetch('/Nope'.encode(enc)) }
    end
    bad = "/\xD8\x00".dup.force_encoding('UTF-16BE')   # a lone surrogate: refused, never read as bytes
    assert_raises(EncodingError) { Jdoc.fetch(json, bad) }
    assert_raises(EncodingError) { Jdoc::Doc.open(json) { |d| d.fetch(bad) } }
  end
end
