// The convolution launch parameters of the parameters panel: tile size and mask width, offered within
// what the selected variant allows (conv_geometry decides; refused choices stay listed, greyed, with
// its reason). Runs, sweeps, the sim and the Convolution tab read them from RunParams.
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"

namespace ws::ui {

/// One choice of a combo: the value, its label, and why the variant refuses it ("" = allowed).
struct ConvChoice {
  int value = 0;
  std::string label;
  std::string refused;
};

/// The tiles offered for `v` with the current parameters. 1D: the tile is the block (1 output per
/// thread), so the values are block sizes 8..1024 and 0 = the default 256; 2D: TILE_SIZE 4..32 and 0 =
/// the variant's default (fixed-tile variants: only their tile).
std::vector<ConvChoice> conv_tile_choices(const VariantInfo& v, const controller::RunParams& p);

/// Odd mask widths 1..15 with the current tile.
std::vector<ConvChoice> conv_mask_choices(const VariantInfo& v, const controller::RunParams& p);

/// The tile as the run uses it: 1D the block (p.block), 2D p.pattern.tile.
int conv_tile_value(const VariantInfo& v, const controller::RunParams& p);

/// Sets the tile: 1D writes p.block (and clears p.pattern.tile, which must agree with it), 2D
/// p.pattern.tile.
void set_conv_tile(const VariantInfo& v, controller::RunParams& p, int tile);

/// Width of the two combos with their labels, for the panel's flow layout.
float conv_controls_width();

/// Draws the "tile" and "mask" combos for a convolution variant; a choice changes `p` (set_conv_tile, the mask width).
void ConvLaunchControls(controller::RunParams& p, const VariantInfo& v);

}  // namespace ws::ui
