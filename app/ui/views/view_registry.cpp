#include "views/view_registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ws::ui {

namespace {

/// The built-in views in tab order, then the registered ones (register_view).
std::vector<ViewInfo>& view_table() {
  static std::vector<ViewInfo> views = [] {
    std::vector<ViewInfo> all = built_in_views();
    std::stable_sort(all.begin(), all.end(),
                     [](const ViewInfo& a, const ViewInfo& b) { return a.position < b.position; });
    for (std::size_t i = 1; i < all.size(); ++i)
      if (all[i].position == all[i - 1].position)
        throw std::logic_error("views '" + all[i - 1].id + "' and '" + all[i].id + "' share tab position " +
                               std::to_string(all[i].position));
    for (std::size_t i = 0; i < all.size(); ++i)
      for (std::size_t j = i + 1; j < all.size(); ++j)
        if (all[i].id == all[j].id) throw std::logic_error("two built-in views have the id '" + all[i].id + "'");
    return all;
  }();
  return views;
}

}  // namespace

const std::vector<ViewInfo>& all_views() { return view_table(); }

void register_view(ViewInfo view) {
  if (view.id.empty() || view.label.empty() || !view.make)
    throw std::logic_error("register_view: a view needs an id, a label and a make function");
  if (find_view(view.id)) throw std::logic_error("register_view: view id '" + view.id + "' is taken");
  view_table().push_back(std::move(view));
}

const std::vector<std::string>& view_ids() {
  static std::vector<std::string> ids;
  if (ids.size() != all_views().size()) {  // built on first use, again after a register_view()
    ids.clear();
    for (const ViewInfo& v : all_views()) ids.push_back(v.id);
  }
  return ids;
}

const ViewInfo* find_view(const std::string& id) {
  const std::vector<ViewInfo>& views = all_views();
  const auto it = std::find_if(views.begin(), views.end(), [&](const ViewInfo& v) { return v.id == id; });
  return it == views.end() ? nullptr : &*it;
}

std::string view_id_list(bool steps_only) {
  std::string list;
  for (const ViewInfo& v : all_views())
    if (!steps_only || v.steps) list += (list.empty() ? "" : ", ") + v.id;
  return list;
}

}  // namespace ws::ui
