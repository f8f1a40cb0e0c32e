// The Roofline tab: the lesson's runs from the report shown as points of arithmetic intensity
// (operations per DRAM byte) against achieved operations per second, under the device's roofs
// (roofline.hpp); labelled points, hover for the values, PNG (the view) and SVG (the chart) export.
#pragma once
#include "view_context.hpp"

namespace ws::ui {

class RooflineView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  bool range_wrong_ = false;  ///< the axes span the racy and slide-bug points too (asked with the checkbox)
};

/// The runs the Roofline tab draws: for each compared variant (chosen_variants), its latest run in
/// `r` that has DRAM metrics, else its latest run (which the chart then lists as left out).
std::vector<std::size_t> roofline_runs(const Report& r, const std::vector<std::string>& ids);

}  // namespace ws::ui
