# SPDX-License-Identifier: MIT
# Jdoc::Doc against Oj::Doc itself on the Docker corpus and three standard
# files: every leaf's where?, fetch, type and local_key, size, each_child
# order, relative paths and "..". Then the differences on purpose, each with
# jdoc's answer and Oj's wrong one. Skips without ../shared/corpus or oj.
require 'helper'
require 'tmpdir'

class TestOjCompat < Minitest::Test
  def setup
    skip 'oj not installed (apt-get install ruby-oj)' unless JdocTest::OJ
  end

  # Everything a leaf walk sees, in order, with relative lookups from each leaf.
  def leaves(klass, json)
    klass.open(json) do |d|
      out = []
      d.each_leaf do |x|
        lk = x.local_key
        rel = lk.is_a?(Integer) ? "../#{lk}" : (lk.include?('/') || lk.include?('\\') || lk == '..' ? nil : "../#{lk}")
        out << [x.where?, x.fetch, x.type, lk, x.type('..'), rel && x.fetch(rel)]
      end
      out
    end
  end

  # each_child order at the root and in every container of depth 1, from a
  # moved cursor, with where?, local_key and type; and size.
  def structure(klass, json)
    klass.open(json) do |d|
      out = [d.size, d.type]
      tops = []
      d.each_child { |c| tops << c.where? }
      out << tops
      tops.each do |t|
        d.move(t)
        out << [d.where?, d.local_key, d.type]
        d.each_child { |c| out << [c.where?, c.local_key, c.type, c.type('../..')] }
        d.home
      end
      out
    end
  end

  def first_difference(a, b)
    i = (0...[a.size, b.size].max).find { |k| a[k] != b[k] }
    i && "at #{i}: jdoc #{a[i].inspect[0, 300]} vs Oj #{b[i].inspect[0, 300]}"
  end

  def check_file(path)
    json = JdocTest.read(path)
    j = leaves(Jdoc::Doc, json)
    o = leaves(Oj::Doc, json)
    assert_operator j.size, :>, 0
    assert_nil first_difference(j, o), "#{File.basename(path)}: each_leaf differs"
    assert_nil first_difference(structure(Jdoc::Doc, json), structure(Oj::Doc, json)),
               "#{File.basename(path)}: structure differs"
    assert_equal Oj::Doc.open(json, &:fetch), Jdoc::Doc.open(json, &:fetch)
    assert_equal JSON.parse(json), Jdoc::Doc.open(json, &:fetch)
    # dump: the same JSON value (strings keep their source escapes, see below)
    assert_equal JSON.parse(Oj::Doc.open(json, &:dump)), JSON.parse(Jdoc::Doc.open(json, &:dump))
  end

  JdocTest.docker_files.each do |f|
    define_method("test_docker_#{File.basename(f, '.json')}") { check_file(f) }
  end

  JdocTest.standard_files.each do |f|
    define_method("test_standard_#{File.basename(f, '.json')}") { check_file(f) }
  end

  def test_corpus_present
    skip "corpus not found at #{JdocTest::CORPUS}" unless JdocTest.corpus?
    assert_operator JdocTest.docker_files.size, :>=, 10
  end

  def test_relative_moves_match
    json = '{"a":{"b":[10,{"c":"x","d":[true,null]}]},"e":1.5}'
    script = lambda do |d|
      r = []
      d.move('/a/b/2')
      r << d.where? << d.local_key << d.fetch('c') << d.fetch('../1') << d.fetch('../../b/2/d/1') << d.type('d')
      d.move('d/2')
      r << d.where? << d.fetch << d.fetch('../../c') << d.local_key
      d.move('../..')
      r << d.where? << d.fetch('1')
      d.move('/e')
      r << d.where? << d.fetch << d.local_key
      r << d.home << d.where? << d.fetch('a/b/1') << d.exists?('a/b/2/d') << d.exists?('a/x')
      r
    end
    assert_equal Oj::Doc.open(json, &script), Jdoc::Doc.open(json, &script)
  end

  def test_each_value_matches
    skip "corpus not found at #{JdocTest::CORPUS}" unless JdocTest.corpus?
    json = JdocTest.read(JdocTest.corpus('docker', 'container_inspect.json'))
    collect = ->(d) { v = []; d.each_value { |x| v << x }; d.each_value('/1/Config') { |x| v << x }; v }
    assert_equal Oj::Doc.open(json, &collect), Jdoc::Doc.open(json, &collect)
  end

  # ---- differences on purpose: jdoc's answer, and Oj::Doc 3.14's wrong one ----

  def test_difference_exponent_without_fraction
    # 1e3 is the number 1000: Oj::Doc reads the digits before the 'e' as an Integer
    assert_equal [1000.0, Float, 100.0], Jdoc::Doc.open('[1e3, 1E+2]') { |d| [d.fetch('/1'), d.type('/1'), d.fetch('/2')] }
    assert_equal [1, Integer, 1], Oj::Doc.open('[1e3, 1E+2]') { |d| [d.fetch('/1'), d.type('/1'), d.fetch('/2')] }
  end

  def test_difference_not_json_input
    # an error page instead of JSON: Oj::Doc gives an empty document, jdoc says so
    ['<html><body>502 Bad Gateway</body></html>', 'Internal Server Error', '', '/* c */ [1]'].each do |body|
      assert_raises(Jdoc::ParseError, body) { Jdoc::Doc.open(body) }
      assert_nil Oj::Doc.open(body) { |d| d.fetch('/1') } unless body.start_with?('/*')
    end
    assert_equal [1], Oj::Doc.open('/* c */ [1]', &:fetch)   # Oj reads comments
  end

  def test_difference_text_after_the_value
    # Oj::Doc ignores what follows the first value (a second document, garbage)
    ['[1] x', '{"a":1}{"b":2}', '[1]//x'].each do |s|
      assert_raises(Jdoc::ParseError, s) { Jdoc::Doc.open(s) }
    end
    assert_equal({ 'a' => 1 }, Oj::Doc.open('{"a":1}{"b":2}', &:fetch))
  end

  def test_difference_strict_values
    # invalid UTF-8, raw control characters, leading zeros, a bare '-': jdoc
    # raises; Oj::Doc returns the bytes or a wrong number
    assert_raises(Jdoc::ParseError) { Jdoc::Doc.open("[\"\xFF\"]") }
    assert_equal ["\xFF".dup.force_encoding('UTF-8')], Oj::Doc.open("[\"\xFF\"]", &:fetch)
    assert_raises(Jdoc::ParseError) { Jdoc::Doc.open("[\"a\tb\"]") }
    assert_equal ["a\tb"], Oj::Doc.open("[\"a\tb\"]", &:fetch)
    assert_raises(Jdoc::ParseError) { Jdoc::Doc.open('[01]', &:fetch) }
    assert_equal [1], Oj::Doc.open('[01]', &:fetch)
    assert_raises(Jdoc::ParseError) { Jdoc::Doc.open('[-]', &:fetch) }
    assert_equal [0], Oj::Doc.open('[-]', &:fetch)
    assert_equal [5.0e-324], Jdoc::Doc.open('[5e-324]', &:fetch)
    assert_equal [5], Oj::Doc.open('[5e-324]', &:fetch)
    # a UTF-8 byte order mark is not JSON text (RFC 8259 §8.1); Oj skips it
    assert_raises(Jdoc::ParseError) { Jdoc::Doc.open("\xEF\xBB\xBF[1]") }
    assert_equal [1], Oj::Doc.open("\xEF\xBB\xBF[1]", &:fetch)
  end

  def test_difference_grammar_errors_inside_containers
    # stage 1 checks brackets, strings and UTF-8; the rest of the grammar is
    # checked where values are read: jdoc opens these, reads what is sound and
    # raises on what is not; Oj::Doc refuses them at open
    ['{"a": [1 2], "b": 3}', '{"a": {"x" 1}, "b": 3}', '{"b": 3, "a": 1,}'].each do |s|
      assert_equal 3, Jdoc::Doc.open(s) { |d| d.fetch('/b') }, s
      assert_raises(Jdoc::ParseError, s) { Jdoc::Doc.open(s, &:fetch) }
      assert_raises(Oj::ParseError, s) { Oj::Doc.open(s) { |d| d.fetch('/b') } }
    end
  end

  def test_difference_index_zero_and_leading_zeros
    # Oj::Doc indices are 1-based, yet Oj takes 0 (and "01") as the first element
    assert_equal [nil, false, nil], Jdoc::Doc.open('[10,20]') { |d| [d.fetch('/0'), d.exists?('/0'), d.fetch('/01')] }
    assert_equal [10, true, 10], Oj::Doc.open('[10,20]') { |d| [d.fetch('/0'), d.exists?('/0'), d.fetch('/01')] }
  end

  def test_difference_walk_with_path_restores_the_cursor
    # each_leaf(path) must leave the cursor where it was; Oj::Doc moves it
    walk = ->(d) { d.move('/a/2'); d.each_leaf('/a') { }; d.where? }
    assert_equal '/a/2', Jdoc::Doc.open('{"a":[1,{"b":2}]}', &walk)
    assert_equal '/a', Oj::Doc.open('{"a":[1,{"b":2}]}', &walk)
  end

  def test_difference_close_twice
    d = Jdoc::Doc.open('[1]')
    d.close
    assert_nil d.close                       # like IO#close
    o = Oj::Doc.open('[1]')
    o.close
    assert_raises(IOError) { o.close }
  end

  def test_difference_dump_keeps_source_escapes
    json = '["\u00e9\/x"]'
    assert_equal '["\u00e9\/x"]', Jdoc::Doc.open(json, &:dump)
    assert_equal "[\"é/x\"]", Oj::Doc.open(json, &:dump).force_encoding('UTF-8')
    assert_equal JSON.parse(Jdoc::Doc.open(json, &:dump)), JSON.parse(Oj::Doc.open(json, &:dump))
  end

  # Resident memory growth of 40 block-form opens of a 150 KB list, in a fresh
  # process (an allocator that already has free memory would hide a leak).
  def growth_in_child(lib, klass)
    code = <<~RUBY
      require 'json'; require '#{lib}'
      json = JSON.generate((1..1500).map { |i| { 'Id' => format('%064x', i), 'Names' => ["/c-\#{i}"], 'n' => i } })
      rss = -> { GC.start; File.read('/proc/self/status')[/VmRSS:\\s+(\\d+)/, 1].to_i * 1024 }
      5.times { #{klass}.open(json) { |d| d.fetch('/1/Id') } }
      before = rss.call
      40.times { #{klass}.open(json) { |d| d.fetch('/1/Id') } }
      puts rss.call - before, json.bytesize
    RUBY
    out = IO.popen([RbConfig.ruby, '-I', File.expand_path('../lib', __dir__), '-e', code], &:read)
    assert $?.success?, out
    out.split.map(&:to_i)
  end

  def test_difference_block_form_does_not_leak
    # Oj::Doc.open with a block (3.14) never frees the document's nodes: about
    # twice the input per call. jdoc frees everything when the block ends.
    skip 'no /proc/self/status' unless File.exist?('/proc/self/status')
    jdoc_growth, size = growth_in_child('jdoc', 'Jdoc::Doc')
    oj_growth, = growth_in_child('oj', 'Oj::Doc')
    assert_operator jdoc_growth, :<, 4 * size, "jdoc grew #{jdoc_growth} bytes"
    assert_operator oj_growth, :>, 20 * size, "Oj grew #{oj_growth} bytes (did Oj stop leaking?)"
  end

  # ---- oj_compat: Oj::Doc's answers where strict mode differs ----

  NO_ROOT = ['', ' ', "\t\r\n ", '// comment', "// c\n", '/* c */', '#', "\xEF\xBB\xBF"].freeze

  def test_oj_compat_no_root
    NO_ROOT.each do |json|
      assert_raises(Jdoc::ParseError, json.inspect) { Jdoc::Doc.open(json) }   # strict: not JSON
      [Jdoc::Doc.open(json, oj_compat: true), Jdoc::OjDoc.open(json)].each do |d|
        assert_equal ['/', '/', nil, nil, nil, nil, false, 0, [nil, nil], []],
                     [d.where?, d.home, d.local_key, d.type, d.fetch, d.dump, d.exists?('/1'), d.size,
                      d.values_at('/1', 'a'), d.pluck('Id')], json.inspect
        assert_equal :dflt, d.fetch('/a', :dflt)
        assert_raises(ArgumentError) { d.move('/1') }
        assert_raises(Jdoc::PathError) { d.fetch!('/1') }
        seen = []
        d.each_leaf { seen << 1 }
        d.each_child { seen << 2 }
        d.each_value { seen << 3 }
        assert_empty seen
        d.close
        assert_raises(IOError) { d.fetch }
      end
    end
    assert_nil Oj::Doc.open('') { |d| d.fetch('/1') } if JdocTest::OJ
  end

  def test_oj_compat_comments_bom_and_trailing_text
    json = %({\n "x"/*one*/:/*two*/true,//three\n "u":"http://h/a#b//c/*d*/",# four\n "z":[1,2/*five*/]\n}// end)
    assert_raises(Jdoc::ParseError) { Jdoc::Doc.open(json, &:fetch) }   # strict: comments are not JSON
    want = { 'x' => true, 'u' => 'http://h/a#b//c/*d*/', 'z' => [1, 2] }
    assert_equal want, Jdoc::OjDoc.open(json, &:fetch)
    # Oj 3.14 itself reads `#` only where a value may start
    assert_equal want, Oj::Doc.open(json.sub('# four', ''), &:fetch) if JdocTest::OJ
    assert_equal [1], Jdoc::OjDoc.open("\xEF\xBB\xBF[1]", &:fetch)
    ['1.5 x', '[1] x', '{"a":1}{"b":2}', '[1]//x'].each do |s|
      assert_raises(Jdoc::ParseError, s) { Jdoc::Doc.open(s) }
      want = Jdoc::OjDoc.open(s, &:fetch)
      assert_equal Oj::Doc.open(s, &:fetch), want, s if JdocTest::OJ && s != '1.5 x'   # 3.14 raises on that one
    end
    assert_in_delta 1.5, Jdoc::OjDoc.open('1.5 x', &:fetch)
    # still not JSON in either mode: malformed values, unterminated comments
    ['0.0.0', '1.5.', '[1,', '/*', '[/* c', '{"a" 1}'].each do |s|
      assert_raises(Jdoc::ParseError, s) { Jdoc::OjDoc.open(s, &:fetch) }
    end
    e = assert_raises(Jdoc::ParseError) { Jdoc::OjDoc.open('[1, /* c ]') }
    assert_equal 4, e.offset   # offsets are the input's: comments are blanked, not removed
  end

  def test_oj_compat_failed_absolute_move_goes_home
    json = '{"array":[{"hash":{"a":[1,2,3]}}],"b":true}'
    [[false, '/array/1/hash/a/3'], [true, '/']].each do |compat, where|
      Jdoc::Doc.open(json, oj_compat: compat) do |d|
        d.move('/array/1/hash/a/3')
        assert_raises(ArgumentError) { d.move('/array/x') }
        assert_equal where, d.where?
        d.move('/array/1')
        assert_raises(ArgumentError) { d.move('nope') }   # relative: the cursor stays
        assert_equal '/array/1', d.where?
      end
    end
  end

  def test_oj_compat_extra_arguments_and_open_file
    Jdoc::Doc.open('{"a":1}') { |d| assert_raises(ArgumentError) { d.fetch('/a', nil, :extra) } }
    assert_equal 1, Jdoc::OjDoc.open('{"a":1}') { |d| d.fetch('/a', nil, :extra) }   # ignored, as Oj::Doc does
    assert_equal true, Jdoc::OjDoc.open('{"a":1}') { |d| d.exists?('/a', :extra) }
    missing = File.join(Dir.tmpdir, "jdoc-missing-#{Process.pid}.json")
    assert_raises(Errno::ENOENT) { Jdoc::Doc.open_file(missing) }
    assert_raises(IOError) { Jdoc::OjDoc.open_file(missing) }
    assert_raises(IOError) { Jdoc::Doc.open_file(missing, oj_compat: true) }
    assert_raises(IOError) { Oj::Doc.open_file(missing) } if JdocTest::OJ
    assert_equal Jdoc::OjDoc, Jdoc::OjDoc.open('[]').class
    assert_equal Jdoc::OjDoc, Jdoc::OjDoc.parse('[]').class
  end
end
