# SPDX-License-Identifier: MIT
# Shared setup of the binding's tests: minitest, jdoc, the corpus and Oj when present.
require 'minitest/autorun'
require 'json'
require 'jdoc'

module JdocTest
  # ../shared/corpus beside the repository (JDOC_CORPUS overrides).
  CORPUS = ENV['JDOC_CORPUS'] || File.expand_path('../../../../shared/corpus', __dir__)

  OJ = begin
    require 'oj'
    true
  rescue LoadError
    false
  end

  module_function

  def corpus(*parts)
    File.join(CORPUS, *parts)
  end

  def corpus?
    File.directory?(File.join(CORPUS, 'docker'))
  end

  # The Docker corpus files that hold one JSON document.
  def docker_files
    return [] unless corpus?

    Dir[corpus('docker', '*')].sort.reject { |f| f.end_with?('.ndjson', '.txt') }
  end

  def standard_files
    return [] unless corpus?

    %w[twitter.json citm_catalog.json github_events.json].map { |f| corpus('standard', f) }.select { |f| File.exist?(f) }
  end

  def read(path)
    File.binread(path)
  end
end
