# SPDX-License-Identifier: MIT
# Jdoc::Stream: documents fed in pieces come out as from the whole, damaged
# ones are reported and skipped, memory stays bounded on an endless stream.
require 'helper'

class TestStream < Minitest::Test
  include JdocTest

  # Every document of `pieces` fed one after the other, as Hash/Array, and the stream.
  def stream_docs(pieces, **opts)
    s = Jdoc::Stream.new(**opts)
    docs = []
    pieces.each do |c|
      s << c
      s.each { |d| docs << copy(d) }
    end
    s.close { |d| docs << copy(d) }
    [docs, s]
  end

  def copy(d)
    case d
    when Jdoc::Object then d.to_h
    when Jdoc::Array then d.to_a
    else d
    end
  end

  def lines_of(file)
    File.readlines(file).reject { |l| l.strip.empty? }.map { |l| JSON.parse(l) }
  end

  def test_every_split_of_events
    skip 'no corpus' unless corpus?
    data = read(corpus('docker', 'events.ndjson'))
    want = lines_of(corpus('docker', 'events.ndjson'))
    assert_equal 8, want.size
    assert_equal want, stream_docs([data])[0]
    assert_equal want, stream_docs(data.chars)[0], '1-byte pieces'
    (1...data.bytesize).each do |i|
      assert_equal want, stream_docs([data.byteslice(0, i), data.byteslice(i..)])[0], "split at #{i}"
    end
    (1...data.bytesize).step(37) do |i|
      (i + 1...data.bytesize).step(53) do |j|
        pieces = [data.byteslice(0, i), data.byteslice(i, j - i), data.byteslice(j..)]
        assert_equal want, stream_docs(pieces)[0], "split at #{i} and #{j}"
      end
    end
  end

  def test_splits_of_image_pull
    skip 'no corpus' unless corpus?
    data = read(corpus('docker', 'image_pull.ndjson'))
    want = lines_of(corpus('docker', 'image_pull.ndjson'))
    assert_equal want, stream_docs([data])[0]
    assert_equal want, stream_docs(data.each_char.to_a)[0], '1-byte pieces'
    # every split in the first lines, then every 29th byte
    ((1..600).to_a + (601...data.bytesize).step(29).to_a).each do |i|
      assert_equal want, stream_docs([data.byteslice(0, i), data.byteslice(i..)])[0], "split at #{i}"
    end
    [2, 3, 7, 64, 4096].each do |n|
      assert_equal want, stream_docs(data.bytes.each_slice(n).map { |b| b.pack('C*') })[0], "#{n}-byte pieces"
    end
  end

  # Split concatenated documents `{...}{...}` at depth 0, outside strings.
  def split_concatenated(text)
    docs = []
    depth = 0
    start = 0
    in_str = false
    esc = false
    text.each_char.with_index do |c, i|
      if in_str
        if esc then esc = false
        elsif c == '\\' then esc = true
        elsif c == '"' then in_str = false
        end
        next
      end
      case c
      when '"' then in_str = true
      when '{', '[' then depth += 1
      when '}', ']'
        depth -= 1
        if depth.zero?
          docs << JSON.parse(text[start..i])
          start = i + 1
        end
      end
    end
    docs
  end

  def test_concatenated_without_newlines
    skip 'no corpus' unless corpus?
    data = read(corpus('docker', 'image_pull_concatenated.txt'))
    want = split_concatenated(data.dup.force_encoding('UTF-8'))
    assert_operator want.size, :>, 3
    assert_equal want, stream_docs([data])[0]
    assert_equal want, stream_docs(data.chars)[0]
    (1...data.bytesize).each do |i|
      assert_equal want, stream_docs([data.byteslice(0, i), data.byteslice(i..)])[0], "split at #{i}"
    end
  end

  def test_damaged_line_does_not_swallow_the_next
    skip 'no corpus' unless corpus?
    lines = File.readlines(corpus('docker', 'events.ndjson'))
    want = lines.map { |l| JSON.parse(l) }
    data = (lines[0, 4] + ["{\"a\":2\n"] + lines[4..]).join
    [[data], data.chars].each do |pieces|
      seen = []
      docs, s = stream_docs(pieces, on_error: ->(e) { seen << e })
      assert_equal want, docs
      assert_equal 1, s.error_count
      e = s.errors.first
      assert_equal [e], seen
      assert_kind_of Jdoc::StreamError, e
      assert_kind_of Jdoc::ParseError, e
      assert_equal 5, e.line
      assert_equal 5, e.document
      assert_equal lines[0, 4].join.bytesize, e.start
      assert_equal lines[0, 4].join.bytesize + 6, e.offset, 'at its newline'
      assert_match(/line 5/, e.message)
      assert_equal 9, s.document_count
    end
    # all of it in one each, before close: the error does not end the pass
    s = Jdoc::Stream.new
    s << data
    assert_equal want, s.map(&:to_h)
    assert_equal 1, s.error_count
  end

  def test_paths_yield_values
    skip 'no corpus' unless corpus?
    data = read(corpus('docker', 'events.ndjson'))
    want = lines_of(corpus('docker', 'events.ndjson')).map do |e|
      [e['Type'], e['Action'], e.dig('Actor', 'ID'), e.dig('Actor', 'Attributes', 'name'), e['Actor'], e['missing']]
    end
    paths = ['/Type', '/Action', Jdoc::Path.new('/Actor/ID', pointer: true), '/Actor/Attributes/name', '/Actor', '/missing']
    [[data], data.chars].each do |pieces|
      s = Jdoc::Stream.new(paths: paths)
      got = []
      pieces.each { |c| s.feed(c) { |vals| got << vals } }
      s.close { |vals| got << vals }
      assert_equal want, got, 'plain values, kept after the block'
    end
    s = Jdoc::Stream.new(paths: %w[/Type /Action])
    s << data
    s.each { |type, action| assert_equal [want[0][0], want[0][1]], [type, action]; break }
    assert_raises(TypeError) { Jdoc::Stream.new(paths: [1]) }
  end

  def test_paths_with_a_value_that_cannot_be_read
    input = %({"n":01}
{"n":2}
)
    s = Jdoc::Stream.new(paths: ['/n'])
    s << input
    assert_equal [[2]], s.to_a, 'reported, not raised'
    assert_equal 1, s.errors.first.document
    assert_match(/malformed number/, s.errors.first.message)
    s = Jdoc::Stream.new(paths: ['/n'], strict: true)
    s << input
    assert_raises(Jdoc::StreamError) { s.each {} }
    assert_equal [[2]], s.to_a
  end

  def test_invalid_utf8_is_a_damaged_document
    s = Jdoc::Stream.new
    s << "{\"a\":1}\n{\"a\":\"\xff\"}\n{\"b\":1}\n".b
    s.close
    assert_equal [{ 'a' => 1 }, { 'b' => 1 }], s.map(&:to_h)
    assert_equal [2, 2], [s.errors.first.document, s.errors.first.line]
    assert_match(/UTF-8/, s.errors.first.message)
  end

  def test_errors_keep_the_last_hundred
    s = Jdoc::Stream.new
    s << Array.new(150) { |i| %({"a":#{i}\n{"ok":#{i}}\n) }.join
    assert_equal (0...150).to_a, s.map { |d| d['ok'] }
    assert_equal 150, s.error_count
    assert_equal 100, s.errors.size
    assert_equal [101, 299], [s.errors.first.document, s.errors.last.document]
  end

  def test_strict_raises_and_goes_on
    s = Jdoc::Stream.new(strict: true)
    s << "{\"a\":1}\n{\"a\":2\n{\"a\":3}\n"
    got = []
    e = assert_raises(Jdoc::StreamError) { s.each { |d| got << d['a'] } }
    assert_equal 2, e.line
    assert_equal [1], got
    s.each { |d| got << d['a'] }
    assert_equal [1, 3], got
  end

  def test_close_with_a_pending_document
    s = Jdoc::Stream.new
    got = []
    s.feed(%({"a":1}\n{"b":[1,)) { |d| got << d.to_h }
    assert_equal [{ 'a' => 1 }], got
    s.feed("2]}\n12") { |d| got << d.to_h }
    assert_equal [{ 'a' => 1 }, { 'b' => [1, 2] }], got
    s.feed('3') { |d| got << d }
    assert_equal 2, got.size, 'a number is not complete before close: more digits could follow'
    s.close { |d| got << d }
    assert_equal [{ 'a' => 1 }, { 'b' => [1, 2] }, 123], got
    assert s.closed?
    assert_raises(IOError) { s << '{}' }
    s.each { flunk 'nothing after the end' }

    s = Jdoc::Stream.new
    s << %({"a":1}\n{"b":)
    s.close
    assert_equal [{ 'a' => 1 }], s.map(&:to_h)
    assert_equal 1, s.error_count, 'a document cut short at the end is damaged'
  end

  def test_scalars_and_symbols
    s = Jdoc::Stream.new(symbolize_names: true)
    s << %(1 "two" [3] {"four":4} null\n)
    s.close
    assert_equal [1, 'two', [3], { four: 4 }, nil], s.map { |d| copy(d) }
  end

  def test_document_valid_only_inside_its_block
    s = Jdoc::Stream.new
    s << %({"Type":"container","Actor":{"ID":"x","Attributes":{"name":"web"}}}\n)
    kept = copied = nil
    s.each do |d|
      kept = d['Actor']
      copied = d.to_h
      assert_equal 'web', d.dig('Actor', 'Attributes', 'name')
    end
    assert_raises(IOError) { kept['ID'] }
    assert_raises(IOError) { kept.to_h }
    assert_equal 'web', copied['Actor']['Attributes']['name']
    # a break or an exception ends the document too
    s << %({"a":1}\n{"a":2}\n)
    s.each do |d|
      kept = d
      break
    end
    assert_raises(IOError) { kept['a'] }
    assert_equal [2], s.map { |d| d['a'] }, 'the rest is still there'
  end

  def test_no_use_from_inside_its_own_block
    s = Jdoc::Stream.new
    s << %({"a":1}\n)
    s.each do
      assert_raises(Jdoc::Error) { s << %({"b":2}\n) }
      assert_raises(Jdoc::Error) { s.each {} }
      assert_raises(Jdoc::Error) { s.close }
    end
    s << %({"b":2}\n)
    assert_equal [{ 'b' => 2 }], s.map(&:to_h)
  end

  def test_the_chunk_may_change_after_it_is_fed
    s = Jdoc::Stream.new
    buf = +%({"a":"#{'x' * 100}"}\n{"b":)
    s << buf
    buf.replace('Z' * buf.bytesize)   # a client reusing its buffer
    GC.start
    s << "2}\n"
    assert_equal [{ 'a' => 'x' * 100 }, { 'b' => 2 }], s.map(&:to_h)
  end

  def test_two_threads_each_with_its_own_stream
    skip 'no corpus' unless corpus?
    data = read(corpus('docker', 'image_pull.ndjson'))
    want = lines_of(corpus('docker', 'image_pull.ndjson'))
    threads = [3, 5].map do |n|
      Thread.new do
        Array.new(4) { stream_docs(data.bytes.each_slice(n).map { |b| b.pack('C*') })[0] }
      end
    end
    threads.each { |t| t.value.each { |docs| assert_equal want, docs } }
  end

  def test_not_fed_by_another_thread_while_yielding
    s = Jdoc::Stream.new
    s << %({"a":1}\n)
    inside = Queue.new
    done = Queue.new
    reader = Thread.new { s.each { |d| inside << d['a']; done.pop } }
    assert_equal 1, inside.pop
    assert_raises(Jdoc::Error) { s << %({"b":2}\n) }
    done << true
    reader.join
    s << %({"b":2}\n)
    assert_equal [2], s.map { |d| d['b'] }
  end

  def rss_kb
    File.read('/proc/self/status')[/^VmRSS:\s+(\d+)/, 1].to_i
  end

  def test_memory_bounded_on_a_long_stream
    skip 'no /proc' unless File.exist?('/proc/self/status')
    total = 200_000
    pad = 'p' * 100
    s = Jdoc::Stream.new
    nxt = 0
    bad = 0
    feed = lambda do |from, to|
      buf = +''
      (from...to).each do |i|
        buf << %({"Type":"container","Action":"start","id":#{i},"Actor":{"Attributes":{"pad":"#{pad}"}}}\n)
        next if buf.bytesize < 4096

        s << buf.byteslice(0, 4096)
        buf = buf.byteslice(4096..)
        s.each { |d| d['id'] == nxt ? nxt += 1 : bad += 1 }
      end
      buf
    end
    rest = feed.call(0, 20_000)
    GC.start
    base = rss_kb
    max_buffered = 0
    (20_000...total).step(20_000) do |from|
      s << rest
      rest = feed.call(from, from + 20_000)
      max_buffered = [max_buffered, s.buffered].max
    end
    s << rest
    s.close { |d| d['id'] == nxt ? nxt += 1 : bad += 1 }
    grown = rss_kb - base
    warn "grown #{grown} max_buffered #{max_buffered}" if ENV["SHOWRSS"]
    assert_equal 0, bad, 'out of order'
    assert_equal total, nxt
    assert_operator max_buffered, :<, 64 * 1024
    # the stream is 26 MB: keeping its chunks would grow by that much
    assert_operator grown, :<, 12 * 1024, "RSS grew by #{grown} KB"
  end
end
