# SPDX-License-Identifier: MIT
# jdoc: pull values out of JSON by path. Loads the C extension (Jdoc::Doc,
# Jdoc::Path, Jdoc.fetch) and adds the few conveniences written in Ruby.
require 'jdoc/version'
require 'jdoc/jdoc_ext'
require 'jdoc/view'

module Jdoc
  # Base class of jdoc's own errors. Jdoc::PathError is an ArgumentError
  # instead, as Oj::Doc#move raises ArgumentError for a path that leads nowhere.
  class Error < StandardError; end

  class Doc
    class << self
      # Oj::Doc.parse is another name of open.
      alias parse open

      # Oj::Doc.open_file: the file's bytes as the document. With oj_compat:
      # true a file that cannot be read raises IOError, as Oj::Doc does,
      # instead of Errno::ENOENT and friends.
      def open_file(filename, oj_compat: false, &block)
        json = begin
          File.binread(filename)
        rescue SystemCallError => e
          raise unless oj_compat

          raise IOError, e.message
        end
        oj_compat ? open(json, oj_compat: true, &block) : open(json, &block)
      end
    end

    # dump(path = nil, filename = nil): compact JSON of the value at path
    # (nil when there is none); with a filename, written there (returns nil).
    def dump(path = nil, filename = nil)
      json = dump_json(path)
      return json if filename.nil?

      File.write(filename, json) unless json.nil?
      nil
    end
  end

  # Jdoc::Doc opened with oj_compat: true by default: `Oj::Doc = Jdoc::OjDoc`
  # is the drop-in for code written against Oj::Doc (see docs/ruby.md).
  class OjDoc < Doc
    class << self
      def open(json, oj_compat: true, &block)
        super
      end
      alias parse open

      def open_file(filename, oj_compat: true, &block)
        super
      end
    end
  end
end
