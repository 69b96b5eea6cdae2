# SPDX-License-Identifier: MIT
# frozen_string_literal: true
# bench.rb - jdoc's Ruby binding against Oj::Doc, JSON.parse + dig and Oj.load
# + dig on Docker API responses, in one Ruby process, timed by thread CPU time.
# `make bench-ruby` runs it; `ruby -Ibindings/ruby/lib bench/ruby/bench.rb --help`.
require 'json'
require 'oj'
require 'optparse'
require 'jdoc'

$stdout.sync = true

opts = {
  corpus: File.expand_path('../../../shared/corpus/docker', __dir__),
  gen: File.expand_path('../../build/gen_docker', __dir__),
  time: 1, warmup: 0.3, rounds: 5, markdown: false
}
OptionParser.new do |o|
  o.banner = 'usage: bench.rb [--corpus DIR] [--gen PATH] [--time S] [--warmup S] [--rounds N] [--quick] [--markdown]'
  o.on('--corpus DIR', 'Docker corpus folder') { |v| opts[:corpus] = v }
  o.on('--gen PATH', 'gen_docker binary (the 200-container list)') { |v| opts[:gen] = v }
  o.on('--time S', Float, 'seconds per report and round (1)') { |v| opts[:time] = v }
  o.on('--warmup S', Float, 'warm-up seconds per report and round (0.3)') { |v| opts[:warmup] = v }
  o.on('--rounds N', Integer, 'rounds over all peers; the best of each is kept (5)') { |v| opts[:rounds] = v }
  o.on('--quick', 'one round of 0.5 s') { opts[:time] = 0.5; opts[:warmup] = 0.2; opts[:rounds] = 1 }
  o.on('--markdown', 'also print the table as Markdown') { opts[:markdown] = true }
end.parse!

# Each workload: its input, and per peer the work as a lambda chosen once,
# outside the timed loop (as the docker-api gem's JSON benchmark did).
# The first peer is the reference: every other one must return its values,
# and ratios are given against it. goals: [jdoc form, peer, at least x].
Workload = Struct.new(:name, :bytes, :peers, :goals)

# Issue #14's goals against Oj::Doc's open/close form (its block form leaks).
DOC_GOALS = [['jdoc Doc', 'Oj::Doc open/close', 6.0], ['jdoc Jdoc.fetch', 'Oj::Doc open/close', 10.0]].freeze

# One method per workload: its lambdas close over their own json and paths.
def workloads(opts)
  [inspect_workload(opts), list_workload(opts), list_all_workload(opts), info_workload(opts)].compact
end

def list_json(opts)
  File.executable?(opts[:gen]) ? IO.popen([opts[:gen], 'list', '200'], &:read) : nil
end

# Every scalar of a JSON.parse result or of a Jdoc.parse view, in order.
def leaves(v, out = [])
  case v
  when Hash, Jdoc::Object then v.each { |_, x| leaves(x, out) }
  when Array, Jdoc::Array then v.each { |x| leaves(x, out) }
  else out << v
  end
  out
end

def inspect_workload(opts)
  inspect_file = File.join(opts[:corpus], 'container_inspect.json')
  if File.exist?(inspect_file)
    json = File.read(inspect_file)
    paths = ['/Id', '/State/Status', '/Config/Image']
    compiled = paths.map { |p| Jdoc::Path.new(p) }
    Workload.new('container inspect: open + 3 fetches', json.bytesize, {
      'jdoc Doc' => -> { Jdoc::Doc.open(json) { |d| [d.fetch('/Id'), d.fetch('/State/Status'), d.fetch('/Config/Image')] } },
      'jdoc Jdoc.fetch' => -> { Jdoc.fetch(json, *compiled) },
      'Oj::Doc' => -> { Oj::Doc.open(json) { |d| [d.fetch('/Id'), d.fetch('/State/Status'), d.fetch('/Config/Image')] } },
      'Oj::Doc open/close' => lambda {
        d = Oj::Doc.open(json)
        r = [d.fetch('/Id'), d.fetch('/State/Status'), d.fetch('/Config/Image')]
        d.close
        r
      },
      'JSON.parse + dig' => -> { h = JSON.parse(json); [h['Id'], h.dig('State', 'Status'), h.dig('Config', 'Image')] },
      'Oj.load + dig' => -> { h = Oj.load(json, mode: :strict); [h['Id'], h.dig('State', 'Status'), h.dig('Config', 'Image')] },
      'jdoc Jdoc.parse + dig' => -> { h = Jdoc.parse(json); [h['Id'], h.dig('State', 'Status'), h.dig('Config', 'Image')] }
    }, DOC_GOALS + [['jdoc Jdoc.parse + dig', 'JSON.parse + dig', 5.0]])
  else
    warn "bench: #{inspect_file} not found: container inspect skipped"
  end
end

def list_workload(opts)
  if (json = list_json(opts))
    label = 'com.docker.compose.service'
    rel = ['Id', 'Names/1', 'Image', 'State', "Labels/#{label}"]
    compiled = rel.map { |p| Jdoc::Path.new(p) }
    Workload.new('200-container list: Id, name, image, state, label', json.bytesize, {
      'jdoc Doc' => lambda {
        Jdoc::Doc.open(json) do |d|
          r = []
          d.each_child { |c| r << [c.fetch('Id'), c.fetch('Names/1'), c.fetch('Image'), c.fetch('State'), c.fetch("Labels/#{label}")] }
          r
        end
      },
      'jdoc Doc + values_at' => lambda {
        Jdoc::Doc.open(json) { |d| r = []; d.each_child { |c| r << c.values_at(*compiled) }; r }
      },
      'jdoc Doc#pluck' => -> { Jdoc::Doc.open(json) { |d| d.pluck(*compiled) } },
      'jdoc Jdoc.parse + dig' => lambda {
        Jdoc.parse(json).map { |c| [c['Id'], c.dig('Names', 0), c['Image'], c['State'], c.dig('Labels', label)] }
      },
      'Oj::Doc' => lambda {
        Oj::Doc.open(json) do |d|
          r = []
          d.each_child { |c| r << [c.fetch('Id'), c.fetch('Names/1'), c.fetch('Image'), c.fetch('State'), c.fetch("Labels/#{label}")] }
          r
        end
      },
      'Oj::Doc open/close' => lambda {
        d = Oj::Doc.open(json)
        r = []
        d.each_child { |c| r << [c.fetch('Id'), c.fetch('Names/1'), c.fetch('Image'), c.fetch('State'), c.fetch("Labels/#{label}")] }
        d.close
        r
      },
      'JSON.parse + dig' => lambda {
        JSON.parse(json).map { |c| [c['Id'], c.dig('Names', 0), c['Image'], c['State'], c.dig('Labels', label)] }
      },
      'Oj.load + dig' => lambda {
        Oj.load(json, mode: :strict).map { |c| [c['Id'], c.dig('Names', 0), c['Image'], c['State'], c.dig('Labels', label)] }
      }
    }, [['jdoc Doc', 'Oj::Doc open/close', 6.0], ['jdoc Doc#pluck', 'Oj::Doc open/close', 10.0],
        ['jdoc Jdoc.parse + dig', 'JSON.parse + dig', 5.0]])
  else
    warn "bench: #{opts[:gen]} not found (run `make`): the 200-container list is skipped"
  end
end

# Jdoc.parse when the caller reads everything: at most 1.2x slower than JSON.parse.
def list_all_workload(opts)
  return unless (json = list_json(opts))

  Workload.new('200-container list: every value read', json.bytesize, {
    'jdoc Jdoc.parse + walk' => -> { leaves(Jdoc.parse(json)) },
    'JSON.parse + walk' => -> { leaves(JSON.parse(json)) },
    'Oj.load + walk' => -> { leaves(Oj.load(json, mode: :strict)) },
    'jdoc Jdoc.parse.to_a + walk' => -> { leaves(Jdoc.parse(json).to_a) }
  }, [['jdoc Jdoc.parse + walk', 'JSON.parse + walk', 1 / 1.2], ['jdoc Jdoc.parse.to_a + walk', 'JSON.parse + walk', 1 / 1.2]])
end

def info_workload(opts)
  info_file = File.join(opts[:corpus], 'info.json')
  if File.exist?(info_file)
    json = File.read(info_file)
    compiled = [Jdoc::Path.new('/ServerVersion'), Jdoc::Path.new('/NCPU')]
    Workload.new('/info: 2 fields', json.bytesize, {
      'jdoc Doc' => -> { Jdoc::Doc.open(json) { |d| [d.fetch('/ServerVersion'), d.fetch('/NCPU')] } },
      'jdoc Jdoc.fetch' => -> { Jdoc.fetch(json, *compiled) },
      'Oj::Doc' => -> { Oj::Doc.open(json) { |d| [d.fetch('/ServerVersion'), d.fetch('/NCPU')] } },
      'Oj::Doc open/close' => -> { d = Oj::Doc.open(json); r = [d.fetch('/ServerVersion'), d.fetch('/NCPU')]; d.close; r },
      'JSON.parse + dig' => -> { h = JSON.parse(json); [h['ServerVersion'], h['NCPU']] },
      'Oj.load + dig' => -> { h = Oj.load(json, mode: :strict); [h['ServerVersion'], h['NCPU']] }
    }, DOC_GOALS)
  else
    warn "bench: #{info_file} not found: /info skipped"
  end
end

cpu = File.exist?('/proc/cpuinfo') ? File.read('/proc/cpuinfo')[/^model name\s*:\s*(.*)$/, 1] : RbConfig::CONFIG['host_cpu']
puts "ruby #{RUBY_VERSION} (#{RUBY_PLATFORM}), json #{JSON::VERSION}, oj #{Oj::VERSION}"
puts "jdoc binding #{Jdoc::VERSION}, library #{Jdoc::LIBRARY_VERSION}, kernel #{Jdoc.kernel}; CPU: #{cpu}"
puts "#{opts[:rounds]} rounds of #{opts[:time]} s of thread CPU time (warm-up #{opts[:warmup]} s) per peer; " \
     'the median 10 ms batch of each round, the best round kept'


LEAKY = ['Oj::Doc'].freeze

def cpu_now
  Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)
end

# Operations per second of thread CPU time, as `make bench` times the C
# library: batches of about 10 ms for opts[:time] seconds after a warm-up, the
# median batch kept. On a shared machine wall time counts the time another
# process had the CPU; CPU time does not (GC time is counted: it is this thread's).
def time_here(work, opts)
  t0 = cpu_now
  n = 0
  (work.call; n += 1) while cpu_now - t0 < opts[:warmup]
  batch = [(n * 0.01 / [cpu_now - t0, 1e-9].max).ceil, 1].max
  rates = []
  t_end = cpu_now + opts[:time]
  while cpu_now < t_end || rates.size < 3
    a = cpu_now
    batch.times { work.call }
    rates << batch / (cpu_now - a)
  end
  rates.sort[rates.size / 2]
end

def time_in_fork(work, opts)
  rd, wr = IO.pipe
  pid = fork do
    rd.close
    wr.write(time_here(work, opts).to_s)
    wr.close
    exit!(0)
  end
  wr.close
  v = rd.read.to_f
  rd.close
  Process.wait(pid)
  v
end

rows = []
verdicts = []

workloads(opts).each do |w|
  # every peer must return what jdoc returns, before anything is timed
  ref = w.peers.keys.first
  want = w.peers[ref].call
  w.peers.each do |name, work|
    got = work.call
    abort "bench: #{w.name}: #{name} returned #{got.inspect[0, 200]}, jdoc #{want.inspect[0, 200]}" unless got == want
  end
  puts "\n== #{w.name} (#{w.bytes} bytes): values checked equal for #{w.peers.size} peers"
  # Rounds over all peers, the best of each kept: on a shared machine another
  # process slows some rounds, never speeds one up. Oj::Doc's block form leaks
  # (about twice its input per call, gigabytes over a run), and a process that
  # big slows every peer timed after it: it is timed in a fork of this process.
  ips = Hash.new(0.0)
  opts[:rounds].times do
    w.peers.each do |name, work|
      ips[name] = [ips[name], LEAKY.include?(name) ? time_in_fork(work, opts) : time_here(work, opts)].max
    end
    GC.start
  end
  base = ips[ref]
  best_name, best = ips.select { |n, _| n.start_with?('jdoc') }.max_by { |_, v| v }
  ips.each do |name, v|
    rows << [w.name, name, v, base / v, best / v, ref, best_name]
    printf("  %-27s %11.1f i/s %9.2f us/op   %s is %6.2fx   %s is %6.2fx\n", name, v, 1e6 / v, ref, base / v,
           best_name, best / v)
  end
  w.goals.each { |form, peer, goal| verdicts << [w.name, peer, goal, form, ips[form] / ips[peer]] }
end

puts "\n== goals"
verdicts.each do |w, peer, goal, form, r|
  printf("  %-50s %-27s vs %-18s >= %4.2fx: %6.2fx  %s\n", w, form, peer, goal, r, r >= goal ? 'met' : 'NOT MET')
end

if opts[:markdown]
  puts "\n| workload | peer | i/s | µs/op | the first is | the fastest jdoc is |"
  puts '|---|---|---:|---:|---:|---:|'
  rows.each { |w, n, v, r, b| printf("| %s | %s | %.0f | %.2f | %.2fx | %.2fx |\n", w, n, v, 1e6 / v, r, b) }
  puts "\n| workload | jdoc form | vs | goal | ratio | |"
  puts '|---|---|---|---:|---:|---|'
  verdicts.each { |w, peer, goal, form, r| printf("| %s | %s | %s | %.2fx | %.2fx | %s |\n", w, form, peer, goal, r, r >= goal ? 'met' : 'not met') }
end
