# SPDX-License-Identifier: MIT
# JSONPath from Ruby: Jdoc::Doc#query, #query_paths, Jdoc.query, Jdoc::Query,
# and the compliance suite's valid queries against the C engine's answers.
require 'helper'

class TestQuery < Minitest::Test
  include JdocTest

  CONTAINERS = '[{"Id":"8dfa","Names":["/web-1"],"State":"running","Mounts":[{"Type":"bind","Source":"/srv"}],' \
               '"NetworkSettings":{"Networks":{"front":{"IPAddress":"172.18.0.2"}}}},' \
               '{"Id":"4c01","Names":["/db-1"],"State":"exited","Mounts":[],"NetworkSettings":{"Networks":{}}}]'

  def test_doc_query
    Jdoc::Doc.open(CONTAINERS) do |doc|
      assert_equal ['/web-1', '/db-1'], doc.query('$[*].Names[0]')
      assert_equal ['/web-1'], doc.query("$[?@.State == 'running'].Names[0]")
      assert_equal ['/srv'], doc.query("$..Mounts[?@.Type == 'bind'].Source")
      assert_equal [], doc.query('$.nothing')
      assert_equal [{ 'Type' => 'bind', 'Source' => '/srv' }], doc.query('$[0].Mounts[*]')
      assert_equal ["$[0]['NetworkSettings']['Networks']['front']['IPAddress']"], doc.query_paths('$..IPAddress')
    end
  end

  def test_block_yields_value_and_path
    seen = []
    Jdoc::Doc.open(CONTAINERS) do |doc|
      assert_nil(doc.query('$[*].Id') { |v, path| seen << [v, path] })
    end
    assert_equal [['8dfa', "$[0]['Id']"], ['4c01', "$[1]['Id']"]], seen
  end

  def test_module_query_and_compiled
    assert_equal ['172.18.0.2'], Jdoc.query(CONTAINERS, '$..IPAddress')
    q = Jdoc::Query.new('$[*].State')
    assert_equal '$[*].State', q.to_s
    refute q.singular?
    assert Jdoc::Query.new('$[0].Id').singular?
    3.times { assert_equal %w[running exited], Jdoc.query(CONTAINERS, q) }
    Jdoc::Doc.open(CONTAINERS) { |doc| assert_equal %w[running exited], q.run(doc) }
  end

  def test_errors
    e = assert_raises(Jdoc::PathError) { Jdoc::Query.new('$[?@.a == ]') }
    assert_kind_of ArgumentError, e
    assert_equal 10, e.offset
    assert_match(/byte 10/, e.message)
    assert_raises(Jdoc::PathError) { Jdoc.query('not json', ' $') }   # the query is checked first
    assert_raises(Jdoc::ParseError) { Jdoc.query('[1,', '$[*]') }
    assert_raises(TypeError) { Jdoc.query('[]', 42) }
    doc = Jdoc::Doc.open('[1]')
    doc.close
    assert_raises(IOError) { doc.query('$') }
  end

  def test_exception_in_block_frees_and_propagates
    Jdoc::Doc.open('[1,2,3]') do |doc|
      assert_raises(RuntimeError) { doc.query('$[*]') { raise 'stop' } }
      assert_equal [1, 2, 3], doc.query('$[*]')
    end
  end

  def test_compliance_suite_values
    path = corpus('jsonpath', 'cts.json')
    skip "#{path} is absent" unless File.exist?(path)
    n = 0
    JSON.parse(File.read(path))['tests'].each do |t|
      if t['invalid_selector']
        assert_raises(Jdoc::PathError, t['name']) { Jdoc::Query.new(t['selector']) }
        next
      end
      got = Jdoc.query(JSON.generate(t['document']), t['selector'])
      want = t['result'] ? [t['result']] : t['results']
      assert want.include?(got), "#{t['name']}: #{t['selector']}: #{got.inspect}"
      n += 1
    end
    assert_operator n, :>, 400
  end
end
