# SPDX-License-Identifier: MIT
# Jdoc.parse: the lazy, read-only views answer as JSON.parse's Hash and Array
# do, on small documents and on every document of the corpus.
require 'helper'

class TestParse < Minitest::Test
  DOC = <<~JSON
    {"Id":"8dfafdbc3a40","Names":["/web-1","/web"],"State":{"Status":"running","Pid":4242,"Error":null},
     "Labels":{"com.docker.compose.service":"web","a/b":"slash","t~":"tilde","":"empty","k\\u00e9y":"esc"},
     "Ports":[],"Config":{},"Ratio":0.25,"Big":123456789012345678901234567890,"Ok":true}
  JSON

  def same(want, got, msg = nil)
    want.nil? ? assert_nil(got, msg) : assert_equal(want, got, msg)
  end

  def both(json = DOC, **opts)
    [Jdoc.parse(json, **opts), JSON.parse(json, **opts)]
  end

  def test_reads_like_json_parse
    v, h = both
    assert_instance_of Jdoc::Object, v
    %w[Id Ratio Big Ok Ports Config nope].each { |k| same h[k], v[k], k }
    assert_equal h.keys, v.keys
    assert_equal h.size, v.size
    assert_equal h.length, v.length
    assert_equal h['Names'][1], v['Names'][1]
    assert_equal h['Names'][-1], v['Names'][-1]
    assert_nil v['Names'][2]
    assert_nil v['Names'][-3]
    assert_equal h['Labels'].keys, v['Labels'].keys
    ['a/b', 't~', '', 'kéy', 'com.docker.compose.service'].each { |k| assert_equal h['Labels'][k], v['Labels'][k], k }
    assert_equal h.dig('State', 'Status'), v.dig('State', 'Status')
    assert_equal h.dig('Names', 0), v.dig('Names', 0)
    assert_nil v.dig('State', 'Nope', 'x')
    assert_raises(TypeError) { v.dig('Id', 'x') }
    assert_equal h.key?('Ports'), v.key?('Ports')
    refute v.key?('nope')
    assert v.include?('Ok')
    assert_nil v[1]   # a Hash answers nil for keys of another type
    assert_equal h['Names'][0..1], v['Names'][0..1]
    assert_equal %w[/web-1 /web], v['Names'].first(2)
    assert_equal '/web', v['Names'].last
    assert v['Ports'].empty?
    refute v.empty?
  end

  def test_fetch
    v, = both
    assert_equal 'running', v['State'].fetch('Status')
    assert_nil v['State'].fetch('Error')
    assert_equal :d, v.fetch('nope', :d)
    assert_equal 'nope!', v.fetch('nope') { |k| "#{k}!" }
    assert_raises(KeyError) { v.fetch('nope') }
    assert_equal '/web', v['Names'].fetch(1)
    assert_equal :d, v['Names'].fetch(5, :d)
    assert_raises(IndexError) { v['Names'].fetch(5) }
  end

  def test_equality_materialize_and_json
    v, h = both
    assert_equal h, v.to_h
    assert_instance_of Hash, v.to_h
    assert_instance_of Array, v['Names'].to_a
    assert v == h, 'view == Hash'
    assert h == v, 'Hash == view'
    assert v['Names'] == h['Names']
    assert h['Names'] == v['Names'], 'Array == view'
    assert v == Jdoc.parse(DOC)
    refute v == h.merge('Id' => 'other')
    refute v['Names'] == ['/web-1']
    assert_equal h.hash, v.hash
    assert_equal h, JSON.parse(v.to_json)
    assert_equal h, JSON.parse(JSON.generate(v))   # generate calls to_json; escapes stay as in the source
    assert_equal h.inspect, v.inspect
  end

  def test_each_map_and_enumerable
    v, h = both
    assert_equal h.map { |k, x| [k, x.class == Hash || x.class == Array ? x.size : x] },
                 v.map { |k, x| [k, x.is_a?(Jdoc::View) ? x.size : x] }
    assert_equal h.to_a.map(&:first), v.to_a.map(&:first)
    pairs = []
    v['State'].each_pair { |k, x| pairs << [k, x] }
    assert_equal h['State'].to_a, pairs
    assert_equal h['Names'].map(&:upcase), v['Names'].map(&:upcase)
    assert_equal h['State'].values, v['State'].values
    assert_equal h['Names'].each_with_index.to_a, v['Names'].each_with_index.to_a
    assert_equal 2, v['Names'].each.size
    assert_equal %w[Id Names], v.first(2).map(&:first)
  end

  def test_symbolize_names
    v, h = both(symbolize_names: true)
    assert_equal h, v.to_h
    assert_equal 'running', v[:State][:Status]
    assert_nil v['State']   # as the symbolized Hash
    assert_equal h.keys, v.keys
    assert_equal 'running', v.dig(:State, :Status)
    assert v.key?(:Ok)
  end

  def test_scalars_errors_and_encodings
    assert_equal 1, Jdoc.parse('1')
    assert_equal 'x', Jdoc.parse('"x"')
    assert_nil Jdoc.parse('null')
    assert_equal [], Jdoc.parse('[]').to_a
    assert_raises(Jdoc::ParseError) { Jdoc.parse('{"a":') }
    assert_raises(Jdoc::ParseError) { Jdoc.parse('') }
    v = Jdoc.parse('{"a":[1 2],"b":01}')   # found when read, as with Jdoc::Doc
    assert_raises(Jdoc::ParseError) { v['a'].to_a }
    assert_raises(Jdoc::ParseError) { v['b'] }
    assert_equal 2, Jdoc.parse('{"é":2}')['é'.encode('UTF-16LE')]
    assert_equal 2, Jdoc.parse('{"é":2}'.encode('UTF-16LE'))['é']
  end

  def test_views_outlive_their_input_and_the_gc
    s = +'{"a":{"b":[1,"two",{"c":3}]}}'
    v = Jdoc.parse(s)
    inner = v['a']['b']
    s.replace('{"x":0}')
    v = nil
    GC.start
    GC.verify_compaction_references(double_heap: true, toward: :empty) if GC.respond_to?(:verify_compaction_references)
    assert_equal [1, 'two', { 'c' => 3 }], inner.to_a
    assert_equal 3, inner[2]['c']
    views = Array.new(2000) { |i| Jdoc.parse(%({"i":#{i},"a":[#{i}]}))['a'] }   # parsers given back when collected
    GC.start
    assert_equal (0...2000).to_a, views.map { |a| a[0] }
  end

  def test_corpus_documents_match_json_parse
    skip 'corpus missing' unless JdocTest.corpus?
    (JdocTest.docker_files + JdocTest.standard_files).each do |f|
      json = JdocTest.read(f)
      h = JSON.parse(json) rescue next
      v = Jdoc.parse(json)
      next same(h, v, f) unless v.is_a?(Jdoc::View)

      assert_equal h, (v.is_a?(Jdoc::Object) ? v.to_h : v.to_a), f
      assert v == h, f
      # lazily, member by member and element by element, two levels down
      if v.is_a?(Jdoc::Object)
        h.each { |k, x| assert v[k] == x || (x.nil? && v[k].nil?), "#{f} #{k}" }
      else
        h.each_with_index { |x, i| assert v[i] == x || (x.nil? && v[i].nil?), "#{f} [#{i}]" }
      end
    end
  end

  def test_views_shared_by_threads
    # escaped strings decode into the document's parser: every call holds the GVL
    json = JSON.generate((1..300).map { |i| { 'k' => "v\u00e9#{i}", 'n' => [i, "x\"#{i}"] } })
    v = Jdoc.parse(json)
    want = JSON.parse(json)
    rows = 4.times.map { Thread.new { 20.times.map { v.map { |c| [c['k'], c['n'][1]] } } } }.map(&:value)
    rows.flatten(1).each { |r| assert_equal want.map { |c| [c['k'], c['n'][1]] }, r }
    big = JSON.generate({ 'a' => 'x' * 70_000, 'b' => [1, 2] })   # parsed without the GVL
    assert_equal 2, Thread.new { Jdoc.parse(big)['b'][1] }.value
  end
end
