# SPDX-License-Identifier: MIT
# Jdoc::Doc, Jdoc::Path and Jdoc.fetch on small documents: values, paths, the
# cursor, errors and defaults, encodings, numbers and strings.
require 'helper'
require 'tmpdir'

class TestApi < Minitest::Test
  DOC = <<~JSON
    {
      "Id": "8dfafdbc3a40",
      "Names": ["/web-1", "/web"],
      "State": {"Status": "running", "Running": true, "Pid": 4242, "ExitCode": 0, "Error": null},
      "Labels": {"com.docker.compose.service": "web", "a/b": "slash", "": "empty"},
      "Ports": [],
      "Config": {},
      "Ratio": 0.25
    }
  JSON

  def open(json = DOC, &block)
    Jdoc::Doc.open(json, &block)
  end

  def test_versions
    assert_match(/\A\d+\.\d+\.\d+\z/, Jdoc::VERSION)
    assert_match(/\A\d+\.\d+\.\d+\z/, Jdoc::LIBRARY_VERSION)
    assert_includes %w[scalar sse42 avx2 avx512 neon neon_nopmull], Jdoc.kernel
  end

  def test_fetch_scalars
    open do |d|
      assert_equal '8dfafdbc3a40', d.fetch('/Id')
      assert_equal '/web-1', d.fetch('/Names/1')
      assert_equal '/web', d.fetch('/Names/2')
      assert_equal 'running', d.fetch('/State/Status')
      assert_equal true, d.fetch('/State/Running')
      assert_equal 4242, d.fetch('/State/Pid')
      assert_nil d.fetch('/State/Error')
      assert_equal 0.25, d.fetch('/Ratio')
      assert_equal 'web', d.fetch('/Labels/com.docker.compose.service')
      assert_equal 'slash', d.fetch('/Labels/a\/b')
      assert_equal 'empty', d.fetch('/Labels//')  # the empty key ("/Labels/": a trailing '/' adds nothing)
      assert_equal Hash, d.type('/Labels/')
    end
  end

  def test_empty_key
    open('{"": {"": 1}, "a": {"": 2}}') do |d|
      assert_equal 2, d.fetch('/a//')   # "a", then the empty key ("//": an empty step)
      assert_equal({ '' => 1 }, d.fetch('//'))
    end
  end

  def test_fetch_containers
    open do |d|
      assert_equal ['/web-1', '/web'], d.fetch('/Names')
      assert_equal({ 'Status' => 'running', 'Running' => true, 'Pid' => 4242, 'ExitCode' => 0, 'Error' => nil },
                   d.fetch('/State'))
      assert_equal [], d.fetch('/Ports')
      assert_equal({}, d.fetch('/Config'))
      assert_equal JSON.parse(DOC), d.fetch
      assert_equal JSON.parse(DOC), d.fetch('/')
      assert d.fetch('/State').keys.all?(&:frozen?)
    end
  end

  def test_defaults_and_missing
    open do |d|
      assert_nil d.fetch('/Nope')
      assert_equal :x, d.fetch('/Nope', :x)
      assert_equal :x, d.fetch('/Names/3', :x)
      assert_equal :x, d.fetch('/Names/0', :x)      # Oj::Doc indices are 1-based
      assert_equal :x, d.fetch('/Id/x', :x)         # a scalar has no members
      assert_nil d.fetch('/State/Error', :x)        # null is a value, not a miss
      refute d.exists?('/Nope')
      assert d.exists?('/State/Error')
      assert_nil d.type('/Nope')
      assert_nil d.dump('/Nope')
      assert_nil d.size('/Nope')
    end
  end

  def test_fetch_bang
    open do |d|
      assert_equal 4242, d.fetch!('/State/Pid')
      e = assert_raises(Jdoc::PathError) { d.fetch!('/State/Nope/x') }
      assert_kind_of ArgumentError, e
      assert_equal '/State/Nope/x', e.path
      assert_equal '/State', e.where
      assert_match(/no such member at \/State/, e.message)
      e = assert_raises(Jdoc::PathError) { d.fetch!('/Names/7') }
      assert_match(/index out of range/, e.message)
      assert_equal '/Names', e.where
    end
  end

  def test_types
    open do |d|
      assert_equal Hash, d.type
      assert_equal String, d.type('/Id')
      assert_equal Array, d.type('/Names')
      assert_equal TrueClass, d.type('/State/Running')
      assert_equal Integer, d.type('/State/Pid')
      assert_equal NilClass, d.type('/State/Error')
      assert_equal Float, d.type('/Ratio')
      assert_equal Hash, d.type('/Config')
    end
    open('[false, 1e3, 123456789012345678901234567890]') do |d|
      assert_equal FalseClass, d.type('/1')
      assert_equal Float, d.type('/2')
      assert_equal Integer, d.type('/3')
    end
  end

  def test_size_counts_nodes_like_oj
    open('[1,2,3]') { |d| assert_equal 4, d.size }
    open('[]') { |d| assert_equal 1, d.size }
    open('"x"') { |d| assert_equal 1, d.size }
    open('{"a":[1,{"b":2}],"c":{}}') do |d|
      assert_equal 6, d.size
      d.move('/a')
      assert_equal 6, d.size            # the whole document, wherever the cursor is
      assert_equal 4, d.size('/a')
      assert_equal 2, d.size('2')       # relative to the cursor
      assert_equal 1, d.size('/c')
    end
  end

  def test_cursor
    open do |d|
      assert_equal '/', d.where?
      assert_nil d.local_key
      assert_nil d.move('/State/Status')
      assert_equal '/State/Status', d.where?
      assert_equal '/State/Status', d.where
      assert_equal '/State/Status', d.path
      assert_equal 'Status', d.local_key
      assert_equal 'running', d.fetch
      assert_equal 4242, d.fetch('../Pid')
      assert_equal '/web', d.fetch('../../Names/2')
      assert_nil d.fetch('../../../..')
      d.move('../../Names/2')
      assert_equal '/Names/2', d.where?
      assert_equal 2, d.local_key
      assert_equal '/web-1', d.fetch('../1')
      assert_equal '/', d.home
      assert_equal '/', d.where?
      d.move('Labels')                # relative from the root
      d.move('a\/b')
      assert_equal '/Labels/a\/b', d.where?
      assert_equal 'a/b', d.local_key
      e = assert_raises(Jdoc::PathError) { d.move('nope') }
      assert_match(/not a container/, e.message)
      assert_equal '/Labels/a\/b', d.where?     # unchanged after a failed move
      assert_raises(ArgumentError) { d.move('/../x') }
      d.move(Jdoc::Path.new('/State/Pid'))
      assert_equal '/State/Pid', d.where?
      d.home
      d.move(Jdoc::Path.new('/Names/0', pointer: true))   # a pointer is relative to the position
      assert_equal '/Names/1', d.where?
    end
  end

  def test_each_child
    open do |d|
      keys = []
      assert_nil d.each_child { |c| keys << [c.where?, c.local_key] }
      assert_equal [['/Id', 'Id'], ['/Names', 'Names'], ['/State', 'State'], ['/Labels', 'Labels'],
                    ['/Ports', 'Ports'], ['/Config', 'Config'], ['/Ratio', 'Ratio']], keys
      got = []
      d.each_child('/Names') { |c| got << [c.where?, c.local_key, c.fetch] }
      assert_equal [['/Names/1', 1, '/web-1'], ['/Names/2', 2, '/web']], got
      assert_equal '/', d.where?
      d.move('/State')
      got = []
      d.each_child { |c| got << c.fetch('../Status') }
      assert_equal ['running'] * 5, got
      assert_equal '/State', d.where?
      got = []
      d.each_child('/Ports') { |c| got << c }
      d.each_child('/Nope') { |c| got << c }
      d.each_child('Pid') { |c| got << c }   # a scalar has no children
      assert_empty got
      assert_nil d.each_child                # no block: nothing, as Oj::Doc
    end
  end

  def test_each_child_with_compiled_paths
    list = JSON.generate((1..5).map { |i| { 'Id' => "c#{i}", 'Names' => ["/n#{i}"], 'Labels' => { 'k' => i } } })
    id = Jdoc::Path.new('Id')
    name = Jdoc::Path.new('Names/1')
    label = Jdoc::Path.new('/Labels/k', pointer: true)
    got = open(list) { |d| r = []; d.each_child { |c| r << [c.fetch(id), c.fetch(name), c.fetch(label)] }; r }
    assert_equal (1..5).map { |i| ["c#{i}", "/n#{i}", i] }, got
    got = open(list) { |d| r = []; d.each_child { |c| r << c.values_at(id, 'Names/1', label, 'Nope') }; r }
    assert_equal (1..5).map { |i| ["c#{i}", "/n#{i}", i, nil] }, got
  end

  def test_pluck
    list = JSON.generate((1..40).map { |i| { 'Id' => "c#{i}", 'Names' => ["/n#{i}"], 'Labels' => i.odd? ? { 'k' => i } : {} } })
    want = (1..40).map { |i| ["c#{i}", "/n#{i}", i.odd? ? i : nil] }
    open(list) do |d|
      assert_equal want, d.pluck('Id', 'Names/1', 'Labels/k')
      assert_equal want, d.pluck(Jdoc::Path.new('Id'), Jdoc::Path.new('/Names/0', pointer: true), 'Labels/k')
      assert_equal [[]] * 40, d.pluck
      assert_equal want.map { |r| [r[0]] * 20 }, d.pluck(*['Id'] * 20)      # more than 16 paths
      d.move('/3')
      assert_equal [['c3'], [['/n3']], [{ 'k' => 3 }]], d.pluck('')          # an object's children: member values
      d.move('Id')
      assert_equal [], d.pluck('x')                                          # a scalar has no children
    end
    open('{"a": [{"x": 1}, {"x": 01}]}') do |d|
      d.move('/a')
      assert_raises(Jdoc::ParseError) { d.pluck('x') }
    end
  end

  def test_each_leaf_and_value
    json = '{"a":[1,{"b":2},[]],"c":{},"d":"x"}'
    open(json) do |d|
      leaves = []
      assert_nil d.each_leaf { |x| leaves << [x.where?, x.fetch, x.local_key] }
      assert_equal [['/a/1', 1, 1], ['/a/2/b', 2, 'b'], ['/d', 'x', 'd']], leaves
      leaves = []
      d.move('/a')
      d.each_leaf { |x| leaves << x.where? }
      assert_equal ['/a/1', '/a/2/b'], leaves
      assert_equal '/a', d.where?
      leaves = []
      d.each_leaf('/d') { |x| leaves << x.where? }
      d.each_leaf('2') { |x| leaves << x.where? }
      assert_equal ['/d', '/a/2/b'], leaves
      assert_equal '/a', d.where?
      values = []
      assert_nil d.each_value { |v| values << v }
      d.each_value('/') { |v| values << v }
      d.each_value('/d') { |v| values << v }
      assert_equal [1, 2, 1, 2, 'x', 'x'], values
    end
  end

  def test_block_moving_the_cursor_does_not_break_iteration
    open('[[1,2],[3,4],{"x":5}]') do |d|
      seen = []
      d.each_leaf do |x|
        seen << x.where?
        x.home
        x.move('/3/x')
      end
      assert_equal ['/1/1', '/1/2', '/2/1', '/2/2', '/3/x'], seen
      assert_equal '/', d.where?
      seen = []
      d.each_child do |c|
        seen << c.where?
        c.each_child { |g| seen << g.where? }   # nested walks restore their position
      end
      assert_equal ['/1', '/1/1', '/1/2', '/2', '/2/1', '/2/2', '/3', '/3/x'], seen
    end
  end

  def test_exception_in_block_restores_cursor
    open('[[1,2],[3]]') do |d|
      d.move('/2')
      assert_raises(RuntimeError) { d.each_leaf('/1') { raise 'boom' } }
      assert_equal '/2', d.where?
      assert_equal [3], d.fetch
    end
  end

  def test_dump
    open(DOC) do |d|
      assert_equal JSON.generate(JSON.parse(DOC)), d.dump
      assert_equal '["/web-1","/web"]', d.dump('/Names')
      assert_equal '4242', d.dump('/State/Pid')
      d.move('/State')
      assert_equal '"running"', d.dump('Status')
    end
    big = JSON.generate((1..2000).map { |i| { 'k' => i } })
    assert_equal big, open(big) { |d| d.dump }
    Dir.mktmpdir do |dir|
      f = File.join(dir, 'out.json')
      open('[1, 2]') { |d| assert_nil d.dump(nil, f) }
      assert_equal '[1,2]', File.read(f)
    end
  end

  def test_pointer
    open do |d|
      assert_equal '/web-1', d.pointer('/Names/0')
      assert_equal 'slash', d.pointer('/Labels/a~1b')
      assert_equal 'empty', d.pointer('/Labels/')
      assert_nil d.pointer('/Names/-')
      assert_equal :none, d.pointer('/Names/01', :none)
      assert_equal JSON.parse(DOC), d.pointer('')
      d.move('/State')
      assert_equal 'running', d.pointer('/Status')    # from the current position
      assert_raises(Jdoc::PathError) { d.pointer('/a~2') }
    end
  end

  def test_paths
    p1 = Jdoc::Path.new('/State/Status')
    assert p1.frozen?
    assert_equal '/State/Status', p1.to_s
    refute p1.pointer?
    p2 = Jdoc::Path.new('/State/Status', pointer: true)
    assert p2.pointer?
    assert_equal p1, Jdoc::Path.new('/State/Status')
    refute_equal p1, p2
    assert_equal 1, [p1, Jdoc::Path.new('/State/Status')].uniq.size
    assert_match(/Jdoc::Path "\/State\/Status" pointer/, p2.inspect)
    open do |d|
      assert_equal 'running', d.fetch(p1)
      assert_equal 'running', d.fetch(p2)
      assert d.exists?(p1)
      assert_equal String, d.type(p1)
      d.move('/State')
      assert_equal 'running', d.fetch(p1)            # absolute
      assert_equal 4242, d.fetch(Jdoc::Path.new('Pid'))
      assert_equal 4242, d.fetch(Jdoc::Path.new('/Pid', pointer: true))
      assert_equal '/web', d.fetch(Jdoc::Path.new('../Names/2'))
    end
    assert_raises(Jdoc::PathError) { Jdoc::Path.new('/a~', pointer: true) }
    assert_raises(Jdoc::PathError) { Jdoc::Path.new('a', pointer: true) }
    assert_raises(TypeError) { Jdoc::Path.new(:a) }
    assert_raises(TypeError) { open { |d| d.fetch(:Id) } }
  end

  def test_module_fetch
    assert_equal [2], Jdoc.fetch('[1,2]', '/2')
    assert_equal ['8dfafdbc3a40', 'running', nil, 'web', '/web-1'],
                 Jdoc.fetch(DOC, '/Id', '/State/Status', '/Nope', Jdoc::Path.new('/Labels/com.docker.compose.service'),
                            Jdoc::Path.new('/Names/0', pointer: true))
    assert_equal [], Jdoc.fetch('{}')
    assert_equal ['8dfafdbc3a40'], Jdoc.fetch(DOC, 'Id')            # relative: from the root
    many = (1..100).map { |i| "/k#{i}" }
    json = JSON.generate((1..100).to_h { |i| ["k#{i}", i] })
    assert_equal (1..100).to_a, Jdoc.fetch(json, *many)
    300.times { |i| assert_equal [nil], Jdoc.fetch('{}', "/x#{i}") }   # past the path cache's size
    e = assert_raises(Jdoc::ParseError) { Jdoc.fetch('[1,', '/1') }
    assert_equal 3, e.offset
    assert_raises(Jdoc::ParseError) { Jdoc.fetch('[01]', '/1') }
    assert_equal [nil], Jdoc.fetch('[01]', '/2')                      # not read, not checked
    assert_raises(TypeError) { Jdoc.fetch('[1]', 1) }
    assert_raises(TypeError) { Jdoc.fetch(nil, '/1') }
    assert_raises(ArgumentError) { Jdoc.fetch }
  end

  def test_parse_errors_at_open
    e = assert_raises(Jdoc::ParseError) { Jdoc::Doc.open("{\n  \"a\": [1,\n  2\n}") }
    assert_kind_of Jdoc::Error, e
    assert_kind_of StandardError, e
    assert_equal 4, e.line
    assert_equal 1, e.column
    assert_equal 17, e.offset
    assert_match(/line 4, column 1 \(byte 17\)/, e.message)
    ['<html><body>502 Bad Gateway</body></html>', 'Internal Server Error', '', '   ', '[1] x', '{"a":1}{"b":2}',
     "\xEF\xBB\xBF[1]", '/* c */ [1]', "[\"a\tb\"]"].each do |bad|
      assert_raises(Jdoc::ParseError, bad.inspect) { Jdoc::Doc.open(bad) }
    end
    e = assert_raises(Jdoc::ParseError) { Jdoc::Doc.open('[' * 1025 + ']' * 1025) }
    assert_match(/deep/, e.message)
    Jdoc::Doc.open('[' * 1024 + ']' * 1024) { |d| assert_equal 1024, d.size }
  end

  def test_parse_errors_at_fetch
    open('{"a": [1, 01, "x\\q", tru, -, 1.], "b": 2}') do |d|
      assert_equal 2, d.fetch('/b')
      assert_equal 1, d.fetch('/a/1')
      e = assert_raises(Jdoc::ParseError) { d.fetch('/a/2') }
      assert_equal 11, e.offset
      assert_equal '/a/2', e.path
      assert_match(/malformed number at \/a\/2 \(line 1, column 12, byte 11\)/, e.message)
      e = assert_raises(Jdoc::ParseError) { d.fetch('/a/3') }
      assert_match(/escape/, e.message)
      assert_equal 16, e.offset
      assert_raises(Jdoc::ParseError) { d.fetch('/a/4') }
      assert_raises(Jdoc::ParseError) { d.fetch('/a/5') }
      assert_raises(Jdoc::ParseError) { d.fetch('/a/6') }
      assert_raises(Jdoc::ParseError) { d.fetch('/a') }
      assert_raises(Jdoc::ParseError) { d.fetch }
      assert_raises(Jdoc::ParseError) { d.type('/a/2') }
      assert_raises(Jdoc::ParseError) { d.each_value('/a') { } }
      assert d.exists?('/a/6')                        # found, not read
    end
    # grammar errors that stage 1 leaves to stage 2
    open('{"a": [1 2], "b": {"c" 1}, "d": 3}') do |d|
      assert_equal 3, d.fetch('/d')
      assert_raises(Jdoc::ParseError) { d.fetch('/a') }
      assert_raises(Jdoc::ParseError) { d.fetch('/b/c') }
      assert_raises(Jdoc::ParseError) { d.size }
      assert_raises(Jdoc::ParseError) { d.each_leaf { } }
    end
    open('{"a":1,}') do |d|        # a trailing comma is found when the object is read
      assert_equal 1, d.fetch('/a')
      e = assert_raises(Jdoc::ParseError) { d.fetch }
      assert_match(/trailing comma/, e.message)
    end
  end

  def test_numbers
    json = '[0, -0, 1, -1, 9223372036854775807, -9223372036854775808, 9223372036854775808, 18446744073709551615,
             18446744073709551616, -9223372036854775809, 123456789012345678901234567890123456789,
             -123456789012345678901234567890123456789, 0.1, -2.5e-3, 1e3, 1E+2, 1.7976931348623157e308,
             5e-324, 1e400, -1e400, 1e-400, 0.30000000000000004, 2.2250738585072011e-308]'
    want = [0, 0, 1, -1, 9223372036854775807, -9223372036854775808, 9223372036854775808, 18446744073709551615,
            18446744073709551616, -9223372036854775809, 123456789012345678901234567890123456789,
            -123456789012345678901234567890123456789, 0.1, -2.5e-3, 1000.0, 100.0, 1.7976931348623157e308,
            5e-324, Float::INFINITY, -Float::INFINITY, 0.0, 0.30000000000000004, 2.2250738585072011e-308]
    got = open(json) { |d| d.fetch }
    assert_equal want, got
    assert_equal want.map(&:class), got.map(&:class)
    assert_equal want, open(json) { |d| (1..want.size).map { |i| d.fetch("/#{i}") } }
    types = open(json) { |d| (1..want.size).map { |i| d.type("/#{i}") } }
    assert_equal want.map { |v| v.is_a?(Integer) ? Integer : Float }, types
    # every double round-trips exactly through the text Ruby prints for it
    r = Random.new(42)
    floats = Array.new(2000) { [r.rand * 10**r.rand(-300..300), r.bytes(8).unpack1('D')] }.flatten.select(&:finite?)
    assert_equal floats, Jdoc::Doc.open(JSON.generate(floats)) { |d| d.fetch }
  end

  def test_strings_and_escapes
    json = '["plain", "tab\\tnl\\nq\\"bs\\\\sl\\/", "\\u00e9\\u4e2d\\ud83d\\ude00", "nul\\u0000x", "é中😀", "",
             {"k\\u0065y": 1, "é": 2, "a\\/b": 3}]'
    open(json) do |d|
      assert_equal ['plain', "tab\tnl\nq\"bs\\sl/", "é中😀", "nul\u0000x", 'é中😀', ''], (1..6).map { |i| d.fetch("/#{i}") }
      (1..6).each { |i| assert_equal Encoding::UTF_8, d.fetch("/#{i}").encoding }
      assert(d.fetch('/1').valid_encoding?)
      assert_equal 1, d.fetch('/7/key')
      assert_equal 2, d.fetch('/7/é')
      assert_equal 3, d.fetch('/7/a\/b')
      assert_equal({ 'key' => 1, 'é' => 2, 'a/b' => 3 }, d.fetch('/7'))
      keys = []
      d.each_child('/7') { |c| keys << c.local_key }
      assert_equal ['key', 'é', 'a/b'], keys
      assert_equal 'nul', d.fetch('/4')[0, 3]
      assert_equal 5, d.fetch('/4').bytesize
    end
    bad = ['["\\ud800"]', '["\\udc00x"]', '["\\x"]', '["\\u12"]', '["\\u00zz"]']
    bad.each { |j| assert_raises(Jdoc::ParseError, j) { open(j) { |d| d.fetch('/1') } } }
  end

  def test_encodings
    utf8 = '{"k":"é"}'
    assert_equal 'é', open(utf8.b) { |d| d.fetch('/k') }                       # binary with valid UTF-8
    assert_equal 'é', open(utf8.dup.force_encoding('US-ASCII')) { |d| d.fetch('/k') }
    assert_equal 'é', open(utf8.encode('UTF-16LE')) { |d| d.fetch('/k') }    # converted to UTF-8 first
    assert_equal 'é', open(utf8.encode('ISO-8859-1')) { |d| d.fetch('/k') }
    e = assert_raises(Jdoc::ParseError) { open("{\"k\":\"\xE9\"}".b) }         # Latin-1 bytes as binary
    assert_match(/UTF-8/, e.message)
    assert_equal 6, e.offset
    ["[\"\xC0\xAF\"]", "[\"\xED\xA0\x80\"]", "[\"\xF4\x90\x80\x80\"]", "[\"\xE2\x82\"]"].each do |s|
      assert_raises(Jdoc::ParseError, s.inspect) { open(s.b) }
    end
    assert_raises(Jdoc::ParseError) { open("[\"\xFF\"]".dup.force_encoding('UTF-8')) }
  end

  def test_closed_documents
    d = Jdoc::Doc.open('[1,2]')
    refute d.closed?
    assert_equal 1, d.fetch('/1')
    assert_nil d.close
    assert d.closed?
    assert_nil d.close                                 # twice: a no-op
    %i[fetch type where? local_key home size dump].each { |m| assert_raises(IOError) { d.public_send(m) } }
    assert_raises(IOError) { d.move('/1') }
    assert_raises(IOError) { d.exists?('/1') }
    assert_raises(IOError) { d.each_child { } }
    kept = nil
    assert_equal 42, Jdoc::Doc.open('[1]') { |x| kept = x; 42 }
    assert kept.closed?
    assert_raises(IOError) { kept.fetch }
    # closing inside a walk ends it cleanly
    assert_raises(IOError) { Jdoc::Doc.open('[1,2,3]') { |x| x.each_child { |c| c.close } } }
    assert_raises(IOError) { Jdoc::Doc.open('[1,2,3]') { |x| x.each_leaf { |c| c.close } } }
    assert_raises(IOError) { Jdoc::Doc.open('[1,2,3]') { |x| x.each_value { x.close } } }
    assert_raises(NoMethodError) { Jdoc::Doc.new }
    assert_raises(NotImplementedError) { Jdoc::Doc.open('[1]', &:dup) }
  end

  def test_open_variants
    assert_equal [1, 2], Jdoc::Doc.parse('[1,2]', &:fetch)
    Dir.mktmpdir do |dir|
      f = File.join(dir, 'a.json')
      File.write(f, '{"a":[1,2]}')
      assert_equal 2, Jdoc::Doc.open_file(f) { |d| d.fetch('/a/2') }
    end
    obj = Object.new
    def obj.to_str = '[7]'
    assert_equal 7, Jdoc::Doc.open(obj) { |d| d.fetch('/1') }
  end

  def test_large_document_releases_gvl_and_still_reads
    big = JSON.generate((1..20_000).map { |i| { 'Id' => i.to_s, 'v' => i } })
    assert_operator big.bytesize, :>, 64 * 1024
    assert_equal ['20000', 1], Jdoc.fetch(big, '/20000/Id', '/1/v')
    Jdoc::Doc.open(big) { |d| assert_equal 40_001 + 20_000, d.size }
  end
end
