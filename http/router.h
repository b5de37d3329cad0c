// Routing as a pure function: (method, path) -> the registered target and its path parameters.
// Patterns are literal segments and "{name}" captures, e.g. "/api/v1/contracts/{id}/status".
// The first route registered that matches answers. A path is only compared with the routes of its
// number of segments whose last segment is its own or a capture, in registration order.
// Built once at start, then only read: safe to share between threads.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>
#include <boost/container/small_vector.hpp>

namespace esign::http {

class PathParams {
 public:
  void Add(std::string name, std::string value) {
    values_.emplace_back(std::move(name), std::move(value));
  }
  // The captured value, or "" when the pattern has no such capture.
  std::string_view Get(std::string_view name) const {
    for (const auto& [n, v] : values_) {
      if (n == name) return v;
    }
    return {};
  }

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

struct RouteInfo {
  boost::beast::http::verb method;
  std::string pattern;
};

template <class Target>
class Router {
 public:
  enum class Miss { kNoPath, kWrongMethod };

  struct Match {
    const Target* target = nullptr;  // null on a miss
    Miss miss = Miss::kNoPath;
    PathParams params;
  };

  void Add(boost::beast::http::verb method, std::string pattern, Target target) {
    routes_.push_back(Route{method, SplitPattern(pattern), std::move(pattern), std::move(target)});
    const std::vector<PatternSegment>& segments = routes_.back().segments;
    if (shapes_.size() <= segments.size()) shapes_.resize(segments.size() + 1);
    Shape& shape = shapes_[segments.size()];
    const size_t index = routes_.size() - 1;
    if (segments.back().capture) {
      shape.ending_in_capture.push_back(index);
    } else {
      shape.by_last[segments.back().text].push_back(index);
    }
  }

  // `path` is undecoded: a capture holds the raw segment (identifiers never need decoding).
  Match Find(boost::beast::http::verb method, std::string_view path) const {
    Match result;
    const PathSegments segments = Split(path);
    for (const size_t index : Candidates(segments)) {
      const Route& route = routes_[index];
      if (!Matches(route.segments, segments)) continue;
      if (route.method != method) {
        result.miss = Miss::kWrongMethod;
        continue;
      }
      result.target = &route.target;
      // Only the route that answers copies its captures.
      for (size_t i = 0; i < segments.size(); ++i) {
        if (route.segments[i].capture) {
          result.params.Add(route.segments[i].text, std::string(segments[i]));
        }
      }
      return result;
    }
    return result;
  }

  // The methods registered for `path`, in registration order; empty for an unknown path.
  std::vector<boost::beast::http::verb> MethodsOf(std::string_view path) const {
    std::vector<boost::beast::http::verb> out;
    const PathSegments segments = Split(path);
    for (const size_t index : Candidates(segments)) {
      const Route& route = routes_[index];
      if (!Matches(route.segments, segments)) continue;
      if (std::find(out.begin(), out.end(), route.method) == out.end()) {
        out.push_back(route.method);
      }
    }
    return out;
  }

  std::vector<RouteInfo> Routes() const {
    std::vector<RouteInfo> out;
    out.reserve(routes_.size());
    for (const auto& r : routes_) out.push_back({r.method, r.pattern});
    return out;
  }

 private:
  // A pattern segment: literal text, or the name of a "{name}" capture.
  struct PatternSegment {
    std::string text;
    bool capture = false;
  };
  struct Route {
    boost::beast::http::verb method;
    std::vector<PatternSegment> segments;
    std::string pattern;
    Target target;
  };
  // A request path's segments point into the path: matching copies nothing, and paths of up to
  // eight segments (every route's) need no allocation either.
  using PathSegments = boost::container::small_vector<std::string_view, 8>;
  using RouteIndexes = boost::container::small_vector<size_t, 16>;
  // The routes of one number of segments, by their last segment (indexes into routes_, ascending).
  struct Shape {
    std::map<std::string, std::vector<size_t>, std::less<>> by_last;
    std::vector<size_t> ending_in_capture;
  };

  // The routes `segments` may match, in registration order.
  RouteIndexes Candidates(const PathSegments& segments) const {
    RouteIndexes out;
    if (segments.size() >= shapes_.size()) return out;
    const Shape& shape = shapes_[segments.size()];
    auto literal = shape.by_last.find(segments.back());
    if (literal == shape.by_last.end()) {
      out.assign(shape.ending_in_capture.begin(), shape.ending_in_capture.end());
      return out;
    }
    std::merge(literal->second.begin(), literal->second.end(), shape.ending_in_capture.begin(),
               shape.ending_in_capture.end(), std::back_inserter(out));
    return out;
  }

  static PathSegments Split(std::string_view path) {
    PathSegments out;
    size_t start = path.starts_with('/') ? 1 : 0;
    while (start <= path.size()) {
      size_t end = path.find('/', start);
      if (end == std::string_view::npos) end = path.size();
      out.push_back(path.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }

  static std::vector<PatternSegment> SplitPattern(std::string_view pattern) {
    std::vector<PatternSegment> out;
    for (std::string_view segment : Split(pattern)) {
      if (segment.size() > 2 && segment.front() == '{' && segment.back() == '}') {
        out.push_back({std::string(segment.substr(1, segment.size() - 2)), true});
      } else {
        out.push_back({std::string(segment), false});
      }
    }
    return out;
  }

  static bool Matches(const std::vector<PatternSegment>& pattern, const PathSegments& path) {
    if (pattern.size() != path.size()) return false;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i].capture ? path[i].empty() : pattern[i].text != path[i]) return false;
    }
    return true;
  }

  std::vector<Route> routes_;
  std::vector<Shape> shapes_;  // by number of segments
};

}  // namespace esign::http
