// Routing as a pure function: (method, path) -> the registered target and its path parameters.
// Patterns are literal segments and "{name}" captures, e.g. "/api/v1/contracts/{id}/status".
// Built once at start, then only read: safe to share between threads.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>

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
    routes_.push_back(Route{method, Split(pattern), std::move(pattern), std::move(target)});
  }

  // `path` is undecoded: a capture holds the raw segment (identifiers never need decoding).
  Match Find(boost::beast::http::verb method, std::string_view path) const {
    Match result;
    const auto segments = Split(path);
    for (const auto& route : routes_) {
      PathParams params;
      if (!Matches(route.segments, segments, params)) continue;
      if (route.method != method) {
        result.miss = Miss::kWrongMethod;
        continue;
      }
      result.target = &route.target;
      result.params = std::move(params);
      return result;
    }
    return result;
  }

  // The methods registered for `path`, in registration order; empty for an unknown path.
  std::vector<boost::beast::http::verb> MethodsOf(std::string_view path) const {
    std::vector<boost::beast::http::verb> out;
    const auto segments = Split(path);
    for (const auto& route : routes_) {
      PathParams params;
      if (!Matches(route.segments, segments, params)) continue;
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
  struct Route {
    boost::beast::http::verb method;
    std::vector<std::string> segments;
    std::string pattern;
    Target target;
  };

  static std::vector<std::string> Split(std::string_view path) {
    std::vector<std::string> out;
    size_t start = path.starts_with('/') ? 1 : 0;
    while (start <= path.size()) {
      size_t end = path.find('/', start);
      if (end == std::string_view::npos) end = path.size();
      out.emplace_back(path.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }

  static bool Matches(const std::vector<std::string>& pattern, const std::vector<std::string>& path,
                      PathParams& params) {
    if (pattern.size() != path.size()) return false;
    for (size_t i = 0; i < pattern.size(); ++i) {
      const auto& p = pattern[i];
      if (p.size() > 2 && p.front() == '{' && p.back() == '}') {
        if (path[i].empty()) return false;
        params.Add(p.substr(1, p.size() - 2), path[i]);
      } else if (p != path[i]) {
        return false;
      }
    }
    return true;
  }

  std::vector<Route> routes_;
};

}  // namespace esign::http
