"""The backend network of a GPU cluster: switch, link and transceiver counts of a folded-Clos
("fat tree") fabric, and what they cost and draw.

Arithmetic behind SemiAnalysis's "100,000 H100 Clusters" (2024-06-17, ``sa_100k_2024``, facts
B17-B34), written as pure functions of the design choices. Units: counts are numbers of devices
or links; a *link* is one 400G port-to-port connection (one GPU's backend NIC to its leaf, or
one switch port to the next tier up); a *port end* is one end of a link; prices in USD, power in W.

The model is a *fluid* folded Clos: every tier is sized for the links that enter it, so counts
scale with the number of GPUs and fractional switches are rounded up per tier. With switches of
``radix`` ports:

* a non-blocking switch below the top tier uses half its ports down and half up;
* the top tier uses all its ports down;
* ``t`` non-blocking tiers connect at most ``2 (radix/2)**t`` GPUs (Quantum-2, 64 ports, three
  tiers: 65,536, fact B30);
* an *island* design (Meta's islands, B20; SemiAnalysis's 4-tier InfiniBand pods, B22) builds
  non-blocking islands of ``island_gpus`` and one more tier above them whose links are
  ``oversubscription`` times fewer: each island-top switch has ``radix * o / (o + 1)`` ports
  down and ``radix / (o + 1)`` up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# --- topology ------------------------------------------------------------------------------------


def max_nonblocking_gpus(radix: int, tiers: int) -> float:
    """Most GPUs a non-blocking folded Clos of ``tiers`` tiers of ``radix``-port switches connects:
    ``2 (radix/2)**tiers`` (64 ports, 3 tiers: 65,536; 128 ports, 3 tiers: 524,288)."""
    if radix < 2 or tiers < 1:
        raise ValueError("radix must be at least 2 and tiers at least 1")
    return 2.0 * (radix / 2.0) ** tiers


def tiers_needed(gpus: float, radix: int, top_down_ports: float | None = None) -> int:
    """Fewest tiers that connect ``gpus`` non-blocking. ``top_down_ports`` is how many of the top
    switch's ports face down (all of them, ``radix``, unless the top tier also links upward)."""
    down = radix if top_down_ports is None else top_down_ports
    tiers = 1
    while (radix / 2.0) ** (tiers - 1) * down < gpus:
        tiers += 1
        if tiers > 16:
            raise ValueError(f"{gpus:g} GPUs need more than 16 tiers of {radix}-port switches")
    return tiers


@dataclass(frozen=True)
class Fabric:
    """A folded-Clos fabric, tier by tier from the leaves (tier 1) up.

    ``links_up[i]``: links from tier ``i`` (0 = the GPUs' NICs) to tier ``i + 1``;
    ``switches[i]``: switches in tier ``i + 1``. ``island_tiers`` tiers form non-blocking
    islands; a fabric with one island has no tier above it."""

    gpus: float
    radix: int
    links_up: tuple[float, ...]
    switches: tuple[int, ...]
    island_tiers: int
    islands: float

    @property
    def tiers(self) -> int:
        return len(self.switches)

    @property
    def links(self) -> float:
        """Every backend link: GPU-to-leaf plus switch-to-switch."""
        return float(sum(self.links_up))

    @property
    def switch_count(self) -> int:
        return int(sum(self.switches))


def clos_fabric(gpus: float, radix: int, tiers: int = 0, island_gpus: float | None = None,
                oversubscription: float = 1.0) -> Fabric:
    """The fabric that connects ``gpus`` GPUs (one backend link each) with ``radix``-port switches.

    With ``island_gpus`` below ``gpus``, the GPUs sit in non-blocking islands of that size and one
    more tier joins the islands, ``oversubscription`` : 1 (bandwidth into an island-top switch
    over bandwidth out of it). Otherwise the whole cluster is one non-blocking fat tree.
    ``tiers`` fixes the total number of tiers (0: the fewest that fit); fewer than fit is an error.
    """
    if gpus <= 0:
        raise ValueError("gpus must be positive")
    if oversubscription < 1:
        raise ValueError("oversubscription must be at least 1")
    one_island = island_gpus is None or island_gpus >= gpus
    if one_island:
        need = tiers_needed(gpus, radix)
        total = tiers or need
        if total < need:
            raise ValueError(f"{total} tiers of {radix}-port switches connect at most "
                             f"{max_nonblocking_gpus(radix, total):,.0f} GPUs non-blocking; {gpus:,.0f} need {need}")
        links = (float(gpus),) * total
        switches = tuple(math.ceil(gpus / (radix / 2)) for _ in range(total - 1)) + (math.ceil(gpus / radix),)
        return Fabric(gpus, radix, links, switches, total, 1.0)
    down = radix * oversubscription / (oversubscription + 1)
    need = tiers_needed(island_gpus, radix, top_down_ports=down)
    island_tiers = (tiers - 1) if tiers else need
    if island_tiers < need:
        raise ValueError(f"islands of {island_gpus:,.0f} GPUs need {need} tiers of {radix}-port switches "
                         f"({need + 1} with the tier above them); {tiers} is too few")
    below = tuple(math.ceil(gpus / (radix / 2)) for _ in range(island_tiers - 1))
    island_top = math.ceil(gpus / down)
    above_links = gpus / oversubscription
    links = (float(gpus),) * island_tiers + (above_links,)
    switches = below + (island_top, math.ceil(above_links / radix))
    return Fabric(gpus, radix, links, switches, island_tiers, gpus / island_gpus)


def design_fabric(gpus: float, radix: int, tiers: int, island_gpus: float | None,
                  oversubscription: float) -> Fabric:
    """The fabric of a design: islands of ``island_gpus`` when that is below ``gpus`` (else one
    non-blocking tree), with ``tiers`` tiers if that is more than the fewest that fit (``tiers``
    adds tiers, never removes them). A ValueError says why no such fabric exists."""
    island = island_gpus if (island_gpus is not None and island_gpus < gpus) else None
    fewest = clos_fabric(gpus, radix, 0, island, oversubscription)
    return clos_fabric(gpus, radix, tiers, island, oversubscription) if tiers > fewest.tiers else fewest


# --- media: which links are copper, multimode or single-mode optics ----------------------------------


@dataclass(frozen=True)
class Media:
    """Links by medium and the transceivers they need.

    GPU-to-leaf links are copper (DAC) when the leaf sits in the GPUs' rack (middle of rack) and
    multimode optics when it does not (rail-optimized). Switch-to-switch links are multimode inside
    an island; the links of the top layer of a fabric of three or more tiers span rows or buildings
    and are single-mode (B17: multimode reaches ~50 m). Switch ports are twin-port 2x400G OSFP
    cages, so one switch-side transceiver serves two link ends; a node-side transceiver serves
    ``node_ports_per_transceiver`` (1 for 400G ConnectX-7 cards; 2 for Cedar Fever, B28)."""

    dac_links: float
    multimode_links: float
    single_mode_links: float
    node_transceivers: float  # at the GPU servers (400G single-port, or 2x400G with Cedar)
    switch_multimode_transceivers: float  # 2x400G twin-port, multimode
    switch_single_mode_transceivers: float  # 2x400G twin-port, single-mode

    @property
    def optical_links(self) -> float:
        return self.multimode_links + self.single_mode_links

    @property
    def copper_frac(self) -> float:
        """Share of the fabric's links that are copper (B23: 25-33 % in a middle-of-rack design)."""
        return self.dac_links / (self.dac_links + self.optical_links)

    @property
    def transceivers(self) -> float:
        return self.node_transceivers + self.switch_multimode_transceivers + self.switch_single_mode_transceivers

    @property
    def optical_port_ends(self) -> float:
        """400G optical link ends: two per optical link (the unit of B30's 4-tier/3-tier ratio)."""
        return 2.0 * self.optical_links


def fabric_media(fabric: Fabric, rail_optimized: bool = True, node_ports_per_transceiver: int = 1) -> Media:
    """The media and transceivers of ``fabric`` (see :class:`Media`)."""
    gpu_links, switch_layers = fabric.links_up[0], fabric.links_up[1:]
    dac = 0.0 if rail_optimized else gpu_links
    node_optical = gpu_links if rail_optimized else 0.0
    single_mode = switch_layers[-1] if (fabric.tiers >= 3 and switch_layers) else 0.0
    multimode_switch = float(sum(switch_layers)) - single_mode
    return Media(
        dac_links=dac, multimode_links=node_optical + multimode_switch, single_mode_links=single_mode,
        # whole parts: a twin-port transceiver with one end in use is still a transceiver
        node_transceivers=math.ceil(node_optical / node_ports_per_transceiver),
        # a switch-to-switch link has two switch ends, a GPU link one; two ends per twin-port transceiver
        switch_multimode_transceivers=math.ceil((node_optical + 2 * multimode_switch) / 2),
        switch_single_mode_transceivers=single_mode,
    )


# --- what the fabric costs and draws -----------------------------------------------------------------


@dataclass(frozen=True)
class Prices:
    """Unit prices (USD) and powers (W) of the fabric's parts. Switch price and power exclude
    optics (B24: a Quantum-2 switch draws 747 W with passive copper); each pluggable adds its own.
    ``nic_extra_*`` is what a backend NIC adds over the ConnectX-7 already in the server's price
    (BlueField-3 on first-generation Spectrum-X: ~$300 and 50 W per card, B32)."""

    switch_usd_per_port: float
    switch_w_per_port: float
    node_transceiver_usd: float
    node_transceiver_w: float
    multimode_transceiver_usd: float
    multimode_transceiver_w: float
    single_mode_transceiver_usd: float
    single_mode_transceiver_w: float
    dac_usd: float
    dac_w: float
    nic_extra_usd: float = 0.0
    nic_extra_w: float = 0.0


def fabric_bill(fabric: Fabric, media: Media, prices: Prices) -> dict[str, dict[str, float]]:
    """Counts, capex (USD) and power (W) of each kind of part: ``{part: {count, usd, w}}``. One
    backend NIC per GPU; DAC cables are counted per GPU link (one twin-port splitter per two)."""
    p = prices
    parts = {
        "switches": (fabric.switch_count, fabric.radix * p.switch_usd_per_port, fabric.radix * p.switch_w_per_port),
        "node_transceivers": (media.node_transceivers, p.node_transceiver_usd, p.node_transceiver_w),
        "switch_multimode_transceivers": (media.switch_multimode_transceivers, p.multimode_transceiver_usd,
                                          p.multimode_transceiver_w),
        "switch_single_mode_transceivers": (media.switch_single_mode_transceivers, p.single_mode_transceiver_usd,
                                            p.single_mode_transceiver_w),
        "dac_cables": (media.dac_links / 2, p.dac_usd, p.dac_w),
        "nic_extra": (fabric.gpus, p.nic_extra_usd, p.nic_extra_w),
    }
    return {name: {"count": float(n), "usd": float(n * usd), "w": float(n * w)} for name, (n, usd, w) in parts.items()}


def bill_total(bill: dict[str, dict[str, float]], what: str) -> float:
    """Sum of ``what`` (``"usd"`` or ``"w"``) over the parts of a :func:`fabric_bill`."""
    return float(sum(part[what] for part in bill.values()))


def switch_power_with_optics_w(switch_w: float, ports: int, transceiver_w: float, ports_per_transceiver: int = 2) -> float:
    """A switch's power with every port lit by a pluggable (B24: Quantum-2, 64 ports in 32 twin-port
    cages, 747 W with copper)."""
    return switch_w + ports / ports_per_transceiver * transceiver_w


# --- collectives and failures --------------------------------------------------------------------------


def sharp_bandwidth_gain(ranks: float) -> float:
    """How many times less data each rank sends in an all-reduce when the switches reduce in the
    network (SHARP) instead of a ring: a ring all-reduce sends ``2 (p - 1) / p`` times the buffer,
    in-network reduction sends it once. Tends to 2 for many ranks (B31: "2x")."""
    if ranks < 1:
        raise ValueError("ranks must be at least 1")
    return 2.0 * (ranks - 1) / ranks
