# SPDX-License-Identifier: MIT
# Jdoc::Object and Jdoc::Array, the read-only lazy views Jdoc.parse returns:
# the parts written in Ruby. The C extension gives them [], size, each, keys,
# key?, dig, to_h / to_a and to_json; the rest follows Hash and Array.
module Jdoc
  # Shared by both views.
  module View
    def empty?
      size.zero?
    end

    # Equal to a Hash or an Array with the same contents (or to another view).
    def ==(other)
      case other
      when View then materialized == other.materialized
      when ::Hash, ::Array then materialized == other
      else false
      end
    end
    alias eql? ==

    def hash
      materialized.hash
    end

    def inspect
      materialized.inspect
    end
    alias to_s inspect

    # Views are read-only: frozen in spirit, whatever Object#frozen? says.
    def frozen?
      true
    end
  end

  # A JSON object: reads like a frozen Hash.
  class Object
    include View

    def materialized
      to_h
    end
    protected :materialized

    # Hash#== asks an object that answers to_hash to compare itself.
    alias to_hash to_h

    alias has_key? key?
    alias include? key?
    alias member? key?
    alias each_pair each

    def fetch(key, *default)
      raise ArgumentError, "wrong number of arguments (given #{default.size + 1}, expected 1..2)" if default.size > 1

      v = self[key]
      return v unless v.nil? && !key?(key)
      return yield(key) if block_given?
      return default[0] unless default.empty?

      raise KeyError.new("key not found: #{key.inspect}", receiver: self, key: key)
    end

    def values
      map { |_, v| v }
    end

    def values_at(*keys)
      keys.map { |k| self[k] }
    end
  end

  # A JSON array: reads like a frozen Array.
  class Array
    include View

    def materialized
      to_a
    end
    protected :materialized

    # Array#== asks an object that answers to_ary to compare itself.
    alias to_ary to_a

    def fetch(index, *default)
      raise ArgumentError, "wrong number of arguments (given #{default.size + 1}, expected 1..2)" if default.size > 1

      i = Integer(index)
      return self[i] if i < size && i >= -size
      return yield(index) if block_given?
      return default[0] unless default.empty?

      raise IndexError, "index #{index} outside of array bounds: #{-size}...#{size}"
    end

    def first(*n)
      n.empty? ? self[0] : super
    end

    def last(*n)
      n.empty? ? self[-1] : to_a.last(*n)
    end
  end
end
