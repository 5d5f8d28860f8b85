"""Hegemony's data files against our Hegemony rules page, whose tables are copied verbatim below.

Every page check takes the loaded tables ``T`` (the data module itself, or a namespace built by
running ``data.py`` on changed copies of the json files), so the same checks that prove the real
files right also prove that changing any number of a json file is caught.
"""

# The page's tables and sentences are copied verbatim, long lines included:
# ruff: noqa: E501

from __future__ import annotations

import copy
import json
import re
import shutil
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.data_check import DataError

# -- our Hegemony rules page, copied verbatim (tests cannot read it at CI time) -------------------

# §1.1 inventory
PAGE_INVENTORY = r"""
| Component | Count | Engine rule |
|---|---|---|
| Action cards | 40 per role (160) | Decks we author ourselves (§11) |
| Company cards | CC 28 (24 in the deck, 4 starting copies); MC 17 (15 in the deck, 2 starting copies); Public 12; Cooperative Farm 2 | Full tables in §11.2 |
| Event / Political Agenda / Export | 25 / 10 / 16 | We author these (§11.1) |
| Immigration / Business Deal / Loan | 25 / 20 / 10 | Published numbers used as-is (§11.2) |
| Voting cubes | 25 each for WC, MC, CC | **Enforced** |
| Bill markers | 3 per player | Enforced |
| Influence cubes | 35 | **Decision:** enforced. A gain is capped at what is left in the supply, and the rest is lost; with none left, nobody gains or buys influence. |
| Machinery tokens | 6 | Enforced |
| Strike tokens | 7 | Enforced |
| Demonstration token | 1 | Enforced |
| Storage tiles | 6, plus 1 Free Trade Zone (FTZ) | Enforced |
| Legitimacy tokens | 18 | Enforced |
| Company spaces | CC 12, MC 8, Public 9 | Enforced |
| Workers | WC 48, MC 42 | **Decision:** not enforced; the per-colour split is unknown |
| Money, goods, services, loan cards | unlimited | **Decision:** unlimited |
"""

# §1.3 per class
PAGE_PER_CLASS = r"""
| | WC | MC | CC | State |
|---|---|---|---|---|
| Money | 30₳ | 40₳ | 120₳ in Revenue, 0 in Capital | 120₳ (the Treasury) |
| Influence | 1 | 1 | 1 | 1 Personal |
| Resources | none | Storage: 1 Food, 1 Health | Storage: 1 Food, 2 Lux, 2 Edu | Public Services as in §1.2 |
| Storage capacity | none (Goods & Services area only) | 8 per resource | Food 8; Lux, Health, Edu 12 each; FTZ (§5.11) | Public Services: production + 6; own goods: production + 6 |
| Prices | – | Food 12; Lux, Health, Edu 8 | same as MC | fixed (§5.11) |
| Tracks | Population (10 workers → 3); Prosperity 0 | Population (10 → 3); Prosperity 0 | Wealth marker before level 1 | Legitimacy 2 / 2 / 2 (range 1–10) |
| Company market | – | 3 face up | 4 face up | – |
| Bill markers | 3 | 3 | 3 | 3 |
| Hand | 7 | 7 | 7 | 7 |
| Other | – | – | FTZ tile | 2 Events face up; 1 Agenda face up |
"""

# §1.3 population table
PAGE_POPULATION = r"""
| Workers owned | ≤11 | 12–14 | 15–17 | 18–20 | 21–23 | 24–26 | 27–29 | ≥30 |
|---|---|---|---|---|---|---|---|---|
| Population | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |
"""

# §3.4 purchase sources
PAGE_BUY_SOURCES = r"""
| Source | Food | Lux | Health | Edu | Influence | Unit price | Money goes to |
|---|---|---|---|---|---|---|---|
| CC (regular storage only, never FTZ) | ✓ | ✓ | ✓ | ✓ | – | CC price | CC Revenue |
| MC (storage) | ✓ | ✓ | ✓ | ✓ | – | MC price | MC |
| State | if ST holds it | if ST holds it | ✓ | ✓ | Media Influence only | Health/Edu by p4/p5 (0/5/10); Media Influence 10; ST goods fixed (§5.11) | Treasury |
| Foreign Market | ✓ | ✓ | – | – | – | base (Food 10, Lux 6) + tariff by p6 (Food 10/5/0, Lux 6/3/0) | base to supply, tariff to Treasury |
"""

# §4 prosperity gain
PAGE_PROSPERITY = r"""
- **WC track:** positions 0–10 score VP 0,1,2,…,10.
- **MC track:** positions 0–10 score VP 0,1,2,3,4,5,5,6,6,7,7.
"""

# §5.11 price steps
PAGE_PRICE_STEPS = r"""
| Resource | Low | Mid | High |
|---|---|---|---|
| Food | 9 | 12 | 15 |
| Lux | 5 | 8 | 10 |
| Health | 5 | 8 | 10 |
| Edu | 5 | 8 | 10 |
"""

# §6.3 IMF policy shifts
PAGE_IMF = r"""
| Before | 1A | 2A | 2B | 3A | 3B | 4B | 5B | 6A | 7A |
|---|---|---|---|---|---|---|---|---|---|
| After | 1B | 2B | 2C | 3B | 3C | 4C | 5C | 6B | 7B |
"""

# §6.4 tax multiplier
PAGE_TAX_MULTIPLIER = r"""
| p3 \ mod(p4) + mod(p5) | 0 | 1 | 2 | 3 | 4 |
|---|---|---|---|---|---|
| A | 3 | 5 | 7 | 9 | 11 |
| B | 2 | 3 | 4 | 5 | 6 |
| C | 1 | 1 | 1 | 1 | 1 |
"""

# §6.4 income tax rate
PAGE_INCOME_TAX = r"""
| | 3A | 3B | 3C |
|---|---|---|---|
| 2A | 7 | 6 | 5 |
| 2B | 4 | 4 | 4 |
| 2C | 1 | 2 | 3 |
"""

# §6.4 corporate tax
PAGE_CORPORATE_TAX = r"""
| Revenue after employment tax | <5 | 5–9 | 10–24 | 25–49 | 50–99 | 100–199 | 200–299 | 300+ |
|---|---|---|---|---|---|---|---|---|
| 3A | 0 | 1 | 5 | 12 | 24 | 40 | 100 | 160 |
| 3B | 0 | 2 | 5 | 10 | 15 | 30 | 70 | 120 |
| 3C | 0 | 2 | 4 | 7 | 10 | 20 | 40 | 60 |
"""

# §7.1 State influence
PAGE_STATE_INFLUENCE = r"""
| Lowest Legitimacy | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |
|---|---|---|---|---|---|---|---|---|---|---|
| Influence gained | 0 | 1 | 1 | 2 | 2 | 3 | 3 | 4 | 4 | 5 |
"""

# §8 wealth
PAGE_WEALTH = r"""
| Level | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
| Capital ≥ | 0 | 10 | 25 | 50 | 75 | 100 | 125 | 150 | 175 | 200 | 250 | 300 | 350 | 400 | 450 | 500 |
"""

# §9 end-game policy VP
PAGE_POLICY_VP = r"""
| Policies in own section | 1 | 2 | 3 | 4 | 5 |
|---|---|---|---|---|---|
| VP [M] (WC, MC, CC) | 1 | 4 | 8 | 12 | 18 |
| MC VP, **Variant** `mc_policy_vp = "published"` | 1 | 3 | 6 | 10 | 15 |
"""

# §10 the seven policies
PAGE_POLICY_TABLE = r"""
| Policy | A | B | C | When it changes |
|---|---|---|---|---|
| 1 Fiscal | 9 public companies; IMF at ≥2 loans | 6; IMF at ≥2 | 3; IMF at ≥1 | open/close public companies (§5.8) |
| 2 Labour Market | min wage L3 | min L2 | min L1 | raise wages to the minimum; owners may lower (§5.4) |
| 3 Taxation | TM base 3, factor ×2 | base 2, ×1 | base 1, ×0 | recompute TM; income and corporate tables use the new column |
| 4 Health & Benefits | public Health free; ST +1 Legitimacy per 3 bought; TM mod +2 | 5₳; ST +1 VP per purchase; mod +1 | 10₳; mod 0 | recompute TM; flip or remove the welfare tile; CC and MC may re-price Health |
| 5 Education | same as 4, for Education | same | same | recompute TM; CC and MC may re-price Edu |
| 6 Foreign Trade | tariff Food 10 / Lux 6; 0 Deals per round | 5 / 3; 1 Deal | 0 / 0; 2 Deals | move the Import marker; CC and MC may re-price; Deals already out stay (they only change at Preparation) |
| 7 Immigration | +0 Immigration cards per class per round | +1 | +2 | takes effect at the next Preparation |
"""

# §11.2 CC companies
PAGE_CC_COMPANIES = r"""
| Company | Industry | Cost | Prod | Slots | L1/L2/L3 | Machinery |
|---|---|---|---|---|---|---|
| Supermarket ★ | Agri | 16 | 4 | Agri + U | 15/20/25 | +1 |
| Fast Food Chain | Agri | 8 | 3 | U + U | 10/15/20 | – |
| Vegetable Farm | Agri | 15 | 5 | U + U + U | 20/25/30 | – |
| Fish Farm | Agri | 20 | 6 | Agri + U + U | 25/30/35 | +1 |
| Automated Grain Farm | Agri | 25 | 2 | automated | – | – |
| Automated Dairy Farm | Agri | 45 | 3 | automated | – | – |
| Shopping Mall ★ | Lux | 16 | 6 | Lux + U | 15/20/25 | +2 |
| Fashion Company | Lux | 8 | 4 | U + U | 10/15/20 | +2 |
| Hotel | Lux | 15 | 7 | U + U + U | 20/25/30 | – |
| Stadium | Lux | 20 | 8 | Lux + U + U | 25/30/35 | +3 |
| Electronics Manufacturer | Lux | 25 | 3 | automated | – | – |
| Car Manufacturer | Lux | 45 | 5 | automated | – | – |
| Clinic ★ | Health | 16 | 6 | Health + U | 10/20/30 | +2 |
| Hospital | Health | 20 | 7 | Health + U | 10/20/30 | – |
| Pharmaceutical Company | Health | 20 | 8 | Health + U + U | 20/30/40 | +3 |
| Medical Village | Health | 24 | 9 | Health + U + U | 20/30/40 | +2 |
| College ★ | Edu | 16 | 6 | Edu + U | 10/20/30 | +2 |
| Academy | Edu | 20 | 7 | Edu + U | 10/20/30 | – |
| Institute of Technology | Edu | 20 | 8 | Edu + U + U | 20/30/40 | +3 |
| University | Edu | 24 | 9 | Edu + U + U | 20/30/40 | +2 |
| Radio Station | Media | 8 | 2 | U + U | 10/15/20 | – |
| Publishing House | Media | 12 | 3 | U + U + U | 20/25/30 | – |
| Lobbying Firm | Media | 16 | 3 | Media + U | 10/20/30 | – |
| TV Station | Media | 24 | 4 | Media + U + U | 20/30/40 | – |
"""

# §11.2 MC companies
PAGE_MC_COMPANIES = r"""
| Company | Industry | Cost | Base | MC slots | Employee slot (WC, optional) | Bonus | Employee wage L1/L2/L3 |
|---|---|---|---|---|---|---|---|
| Convenience Store ★ | Agri | 14 | 2 | MC Agri | U | +1 | 6/8/10 |
| Doctor's Office ★ | Health | 12 | 2 | MC Health | U | +2 | 6/8/10 |
| Tutoring Company | Edu | 12 | 2 | MC Edu | U | +2 | 6/8/10 |
| Game Store | Lux | 12 | 2 | MC Lux | U | +2 | 6/8/10 |
| Local Newspaper | Media | 14 | 2 | MC Media | U | +1 | 6/8/10 |
| Organic Farm | Agri | 20 | 2 | MC Agri | skilled Agri | +2 | 9/12/15 |
| Electronics Store | Lux | 20 | 2 | MC Lux | skilled Lux | +4 | 9/12/15 |
| Medical Laboratory | Health | 20 | 2 | MC Health | skilled Health | +4 | 9/12/15 |
| Private School | Edu | 20 | 2 | MC Edu | skilled Edu | +4 | 9/12/15 |
| Regional Radio Station | Media | 20 | 2 | MC Media | skilled Media | +2 | 9/12/15 |
| Fast Food Restaurant | Agri | 20 | 3 | MC Agri + MC U | – | – | – |
| Jewelry Store | Lux | 16 | 4 | MC Lux + MC U | – | – | – |
| Pharmacy | Health | 16 | 4 | MC Health + MC U | – | – | – |
| Training Center | Edu | 16 | 4 | MC Edu + MC U | – | – | – |
| PR Agency | Media | 20 | 3 | MC Media + MC U | – | – | – |
"""

# §11.2 public companies
PAGE_PUBLIC_COMPANIES = r"""
| Company | Industry | Cost | Prod | Slots | L1/L2/L3 | Copies and use |
|---|---|---|---|---|---|---|
| University Hospital | Health | 30 | 6 | Health + U + U | 25/30/35 | 1; row 1 in 3–4p |
| Technical University | Edu | 30 | 6 | Edu + U + U | 25/30/35 | 1; row 1 in 3–4p |
| National Public Broadcasting | Media | 30 | 4 | Media + U + U | 25/30/35 | 1; row 1 in 3–4p |
| Public Hospital | Health | 20 | 4 | Health + U | 15/20/25 | 3; row 1 in 2p, plus rows 2 and 3 |
| Public University | Edu | 20 | 4 | Edu + U | 15/20/25 | 3; same |
| Regional TV Station | Media | 20 | 3 | Media + U | 15/20/25 | 3; same |
"""

# §11.2 Business Deals
PAGE_DEALS = r"""
| Food | Lux | Cost | Tariff 6A | Tariff 6B |
|---|---|---|---|---|
| – | 8 | 30 | 16 | 8 |
| – | 10 | 40 | 20 | 10 |
| – | 12 | 50 | 24 | 12 |
| 6 | – | 40 | 12 | 6 |
| 7 | – | 50 | 14 | 7 |
| 8 | – | 55 | 16 | 8 |
| 5 | 6 | 60 | 22 | 11 |
| 4 | 8 | 60 | 24 | 12 |
| 7 | 5 | 70 | 24 | 12 |
| 8 | 4 | 75 | 24 | 12 |
"""

# §11.2 Immigration
PAGE_IMMIGRATION = r"""
| WC worker | MC worker | Cards |
|---|---|---|
| unskilled | skilled in Agri / Lux / Health / Edu / Media | 3 per industry (15) |
| skilled in Agri / Lux / Health / Edu / Media | unskilled | 2 per industry (10) |
"""

# §12 company data conflicts (settled from card images)
PAGE_CONFLICTS = r"""
- Fast Food Chain: U + U.
- Fish Farm: Agri + U + U.
- University: Edu + U + U.
- Publishing House: U + U + U, production 3.
- Lobbying Firm: Media + U.
- Hotel: no machinery bonus. smirea's "9" is an OCR error.
- Academy: cost 20.
- College and Clinic wages: 10/20/30.
- Institute of Technology machinery: +3.
- **TV Station is Media + U + U.** The card image shows a tinted first slot, and dna001 agrees; smirea and demoy15 give U + U + U.
"""

# §1.2 set-up
PAGE_SET_UP = r"""
**Policies:** 1C, 2B, 3A, 4B, 5C, 6B, 7B.
- CC starts with Supermarket, Shopping Mall, College and Clinic, all at L2.
- MC starts with Convenience Store and Doctor's Office, both at L2.
"""

# §1.3 starting workers
PAGE_START_WORKERS = r"""
- **WC (10 workers):**
  - Supermarket: Agri + U.
  - College: Edu + U.
  - University Hospital: Health + U + U.
  - Unemployed: 1 unskilled, plus the WC worker shown on each of 2 Immigration cards. Those cards then go to the bottom of the deck.
- **MC (10 workers):**
  - Technical University: Edu + U + U.
  - Shopping Mall: Lux + U.
  - Convenience Store: its MC Agri slot.
  - Doctor's Office: its MC Health slot.
  - Unemployed: 1 skilled worker of MC's choice, plus the MC worker from each of 2 Immigration cards. MC draws its own cards.
"""

# §11.2 Cooperative Farm
PAGE_COOP = r"""
**Cooperative Farm (2):** 3 WC slots (any WC worker), 2 Food, no cost, no wage.
"""

# (what a sentence of the page sets, a regex whose groups are its numbers, the sentence)
PAGE_SENTENCES: tuple[tuple[Callable[[Any], Any], str, str], ...] = (
    (lambda T: T.ROUNDS, r"lasts (\d+) rounds",
     r"""The game lasts 5 rounds. Each round runs these phases in order: **Preparation** (skipped in round 1) → **Action** → **Production** → **Elections** → **Scoring**. After round 5's Scoring comes **Game End** (§9)."""),
    (lambda T: T.TURNS_PER_ROUND, r"There are (\d+) passes",
     r"""- **Turn order:** WC → MC → CC → ST. There are 5 passes, so each player takes 5 turns. Each player keeps 2 cards for the next round."""),
    (lambda T: (T.HAND_SIZE, T.DRAW_PER_ROUND), r"\| (\d+) at set-up, \+(\d+) in each",
     r"""| Action (×4) | 40 each | 7 at set-up, +5 in each Preparation | Never runs out (27 drawn at most) |"""),
    (lambda T: T.ELECTION_DRAW, r"Draw (\d+) cubes",
     r"""2. **Draw 5 cubes** from the bag. Each cube is 1 vote for its owner's declared side."""),
    (lambda T: (T.BAG_START_CUBES, T.VOTING_CUBES - T.BAG_START_CUBES),
     r"(\d+) cubes of each class colour\. The other (\d+)",
     r"""**Voting bag:** 8 cubes of each class colour. The other 17 of each colour stay in that class's supply."""),
    (lambda T: T.START_TAX_MULTIPLIER, r"starts at (\d+)",
     r"""**Tax multiplier** starts at 5 (§6.4). **Treasury** 120₳. **Round** 1."""),
    (lambda T: T.START_PUBLIC_SERVICES, r"(\d+) Health, (\d+) Education, (\d+) Media",
     r"""**Public Services:** 6 Health, 6 Education, 4 Media Influence."""),
    (lambda T: T.PROSPERITY_DECAY, r"WC Prosperity −(\d+) and MC Prosperity −(\d+)",
     r"""3. WC Prosperity −1 and MC Prosperity −2, with a floor of 0. No VP is lost."""),
    (lambda T: T.PREP_NEW_UNSKILLED[0], r"\+(\d+) unskilled",
     r"""   - +2 unskilled workers;"""),
    (lambda T: T.PREP_NEW_UNSKILLED[1], r"\+(\d+) unskilled",
     r"""   - +1 unskilled worker [M];"""),
    (lambda T: T.IMMEDIATE_VOTE_COST, r"for (\d+) Personal Influence",
     r"""- **Choices:** a policy, and the section adjacent to its current one (A↔B or B↔C; never A↔C, never the current section). Optionally, an **immediate vote** for 1 Personal Influence (the amount comes from [P]; [M] names no amount)."""),
    (lambda T: T.POLITICAL_PRESSURE_CUBES, r"Move (\d+) of the player's cubes",
     r"""**3.2 Apply Political Pressure.** Move 3 of the player's cubes from supply into the bag. If the supply holds fewer than 3, move all of them. **Decision:** the action is legal only if at least 1 cube is in supply."""),
    (lambda T: T.ASSIGN_MAX_WORKERS, r"up to (\d+) of the player's own",
     r"""- **Choices:** up to 3 of the player's own **non-committed** workers, taken from anywhere (the Unemployed area or any company, including the player's own). Each goes into an empty slot it fits."""),
    (lambda T: T.BUY_MAX_SOURCES, r"up to \*\*(\d+) sources",
     r"""- **Choices:** one resource type (Food, Lux, Health, Edu or Influence), plus up to **2 sources**. From each source, buy up to Population units, limited by what the source has."""),
    (lambda T: T.PUBLIC_SERVICE_PRICE[1], r"\*\*B\*\* price \((\d+)₳\)",
     r"""  - Health or Education bought at the p4/p5 **B** price (5₳): ST gains +1 VP, whatever the quantity (minimum 1)."""),
    (lambda T: T.FREE_SERVICE_UNITS_PER_LEGITIMACY, r"every full (\d+) units",
     r"""  - Health or Education bought **free** (section A): ST gains +1 Legitimacy with the buyer's class for every full 3 units bought in this action."""),
    (lambda T: T.STRIKE_MAX_COMPANIES, r"1–(\d+) companies",
     r"""- **Choices:** 1–2 companies. Each must:"""),
    (lambda T: T.DEMONSTRATION_MARGIN, r"\+ (\d+)\.",
     r"""  - WC unemployed workers ≥ `open_wc_slots` + 2."""),
    (lambda T: T.MC_EXPORT_VP, r"MC gains \+(\d+) VP per transaction",
     r"""- **VP:** MC gains +1 VP per transaction. CC and ST gain no VP. The printed player aids agree: the MC aid lists +1 VP per transaction, the CC aid lists none."""),
    (lambda T: T.DEAL_TARIFF_PER_GOOD, r"(\d+)₳ per good under p6 = A, (\d+)₳ under B, (\d+) under C",
     r"""  - For goods put in regular Storage, also pay a tariff to the Treasury: 2₳ per good under p6 = A, 1₳ under B, 0 under C (this equals the card's printed tariff). Goods put in the FTZ pay no tariff."""),
    (lambda T: (T.LOBBY_COST, T.LOBBY_INFLUENCE), r"Pay (\d+)₳ .* gain (\d+) influence",
     r"""**3.12 Lobby** (CC). Pay 30₳ (Capital first, then Revenue) and gain 3 influence. Not legal unless CC can pay."""),
    (lambda T: T.MEET_MPS_INFLUENCE, r"Give (\d+) Personal Influence",
     r"""**3.14 Meet with Party MPs** (ST). Give 2 Personal Influence to WC, MC or CC; that class's Legitimacy rises by 1. Not legal with fewer than 2 Personal Influence."""),
    (lambda T: T.EXTRA_TAX, r"each pay (\d+)₳",
     r"""  - WC, MC and CC each pay 10₳ to the Treasury, taking loans if forced."""),
    (lambda T: T.CAMPAIGN_MAX, r"Move 1–(\d+) Media Influence",
     r"""**3.16 Campaign** (ST). Move 1–3 Media Influence from Public Services to Personal Influence."""),
    (lambda T: T.USE_HEALTH_VP, r"\+(\d+) VP",
     r"""**4.1 Use Health.** Spend Health equal to Population from Goods & Services. Gain 1 Prosperity and +2 VP. Add 1 unskilled worker to the Unemployed area, then recompute Population. The cost uses Population before the new worker arrives."""),
    (lambda T: T.BENEFITS_VP, r"\+(\d+) VP",
     r"""- ST gains +1 VP."""),
    (lambda T: T.LOAN_REPAY, r"Pay (\d+)₳ to supply",
     r"""**4.6 Pay Off Loan.** Pay 50₳ to supply and discard one loan. CC pays Capital first, then Revenue."""),
    (lambda T: T.GIVE_BONUS, r"Pay (\d+)₳ to the class",
     r"""**4.9 Give Bonus** (CC). Choose one operational CC company with at least one non-committed worker. Pay 5₳ to the class of its workers, then commit them."""),
    (lambda T: T.STORAGE_TILE_COST, r"Pay (\d+)₳ and take a storage tile",
     r"""**4.10 Buy Storage** (CC). Pay 20₳ and take a storage tile for one resource CC stores (Food, Lux, Health or Edu). The tile adds capacity equal to that resource's base capacity. At most one tile per resource, and tiles in supply must remain."""),
    (lambda T: T.UNION_MIN_WORKERS, r"at least \*\*(\d+) other",
     r"""- **To fill one:** assign a WC worker skilled in industry X, while at least **4 other** WC workers work in companies of industry X. The count includes the Cooperative Farm for Agriculture, and any owner's companies."""),
    (lambda T: T.UNION_VP, r"\+(\d+) VP at Scoring",
     r"""  - gives +1 Influence at Production and +2 VP at Scoring."""),
    (lambda T: T.FTZ_CAP, r"(\d+) Food and (\d+) Lux",
     r"""  - FTZ capacity is 8 Food and 12 Lux, as printed on the FTZ tile [P]."""),
    (lambda T: T.STATE_STOCK_MARGIN, r"production \+ (\d+)",
     r"""- **State goods:** Food and Lux that ST obtains through cards sit on its board, with cap = own production + 6."""),
    (lambda T: T.STATE_GOODS_PRICE, r"Food (\d+)₳, Lux (\d+)₳",
     r"""  - ST sells them at the fixed prices printed on the State board [P]: Food 12₳, Lux 8₳."""),
    (lambda T: T.MEDIA_INFLUENCE_PRICE, r"costs (\d+)₳",
     r"""  - Media Influence costs 10₳."""),
    (lambda T: T.IMF_REPAY, r"repay loans at (\d+)₳",
     r"""- **Check:** if ST holds **≥ N** loans, it must repay loans at 55₳ each until it holds ≤ N − 1 (automatic when affordable). If it cannot, the **IMF intervenes**."""),
    (lambda T: T.BILL_PASS_VP, r"\*\*\+(\d+) VP\*\*",
     r"""   - The proposer gains **+3 VP**, even without contributing."""),
    (lambda T: T.BILL_SUPPORT_VP, r"\*\*\+(\d+) VP\*\*",
     r"""   - Every other For player who contributed at least 1 vote (a drawn cube or influence) gains **+1 VP**."""),
    (lambda T: T.WEALTH_STEP_VP, r"\+(\d+) VP per step",
     r"""  3. If L is above the marker, move the marker to L and gain +3 VP per step moved. The marker never moves back."""),
    (lambda T: (T.LOAN_REPAY_END, T.LOAN_SHORTFALL_STEP, T.LOAN_SHORTFALL_STEP), r"repays (\d+)₳ per loan.* in (\d+)₳ steps.* per (\d+)₳ still owed",
     r"""1. **Loans [M].** Every player with loans repays 55₳ per loan. A player who cannot pay in full pays in 5₳ steps as far as it can, then loses 1 VP per 5₳ still owed."""),
    (lambda T: (T.STORED_PER_VP[0], *set(T.STORED_PER_VP[1:])), r"1 VP per (\d+) Food and 1 VP per (\d+) of each other",
     r"""3. **Stored resources:** 1 VP per 2 Food and 1 VP per 3 of each other resource, counted separately by type."""),
    (lambda T: (T.MONEY_PER_VP[0], T.WC_MONEY_VP_CAP), r"1 VP per (\d+)₳, capped at (\d+) VP",
     r"""   - WC: 1 VP per 10₳, capped at 15 VP. (**Decision:** the cap is [P]; [M] gives only the rate.)"""),
    (lambda T: T.MONEY_PER_VP[1], r"1 VP per (\d+)₳",
     r"""   - MC: 1 VP per 15₳."""),
    (lambda T: T.MONEY_PER_VP[3], r"1 VP per (\d+)₳",
     r"""   - ST: 1 VP per 30₳ in the Treasury."""),
    (lambda T: (T.LOAN_CARDS, T.LOAN_VALUE), r"(\d+) cards, each worth (\d+)₳",
     r"""**Loans.** 10 cards, each worth 50₳."""),
    (lambda T: T.LOAN_VALUE, r"gives \+(\d+)₳",
     r"""- A loan gives +50₳ (CC: into Capital)."""),
    (lambda T: (T.LOAN_INTEREST, T.LOAN_REPAY, T.LOAN_REPAY_END), r"Interest is (\d+)₳.*costs (\d+)₳ during play and (\d+)₳",
     r"""- Interest is 5₳ per loan per round. Repaying costs 50₳ during play and 55₳ at game end."""),
)


# -- reading the copied markdown ----------------------------------------------------------------

INDUSTRY_NAMES = ("Agri", "Lux", "Health", "Edu", "Media")  # the page's names, INDUSTRIES order
GOOD_NAMES = ("Food", "Lux", "Health", "Edu")


def md_rows(table: str) -> list[list[str]]:
    """The cells of a markdown table, header first, without the |---| line."""
    rows = []
    for line in table.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not all(set(c) <= {"-"} for c in cells):
            rows.append(cells)
    return rows


def md_dict(table: str) -> dict[str, list[str]]:
    """Rows keyed by their first cell."""
    return {r[0]: r[1:] for r in md_rows(table)}


def ints_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def skills_of(cell: str) -> list[int | None]:
    """'Agri + U' -> [0, None]; 'automated' -> []."""
    if cell == "automated":
        return []
    return [None if s == "U" else INDUSTRY_NAMES.index(s) for s in cell.split(" + ")]


def wages_of(cell: str) -> tuple[int, ...] | None:
    return None if cell == "–" else tuple(int(w) for w in cell.split("/"))


def slot_tuples(card: Any) -> list[tuple[int | None, bool, bool]]:
    """Slots as plain tuples (a copy's Slot class is not the module's)."""
    return [(s.skill, s.mc, s.employee) for s in card.slots]


def card(T: Any, name: str, sector: str) -> Any:
    found = [c for c in T.COMPANIES if c.name == name and c.sector == sector]
    assert len(found) == 1, f"{sector} company {name!r}: {len(found)} matches"
    return found[0]


def sector_cards(T: Any, sector: str) -> list[Any]:
    return [c for c in T.COMPANIES if c.sector == sector]


# -- the page checks -----------------------------------------------------------------------------


def check_cc_companies(T: Any) -> None:
    rows = md_rows(PAGE_CC_COMPANIES)
    assert rows[0] == ["Company", "Industry", "Cost", "Prod", "Slots", "L1/L2/L3", "Machinery"]
    cards = sector_cards(T, "cc")
    assert [c.name for c in cards] == [r[0].removesuffix(" ★") for r in rows[1:]]
    starred = []
    for c, (name, industry, cost, prod, slots, wages, machinery) in zip(cards, rows[1:]):
        assert (c.industry, c.cost, c.production) == (
            INDUSTRY_NAMES.index(industry), int(cost), int(prod)), name
        assert slot_tuples(c) == [(s, False, False) for s in skills_of(slots)], name
        assert c.automated == (slots == "automated"), name
        assert c.wages == wages_of(wages), name
        assert c.machinery == (0 if machinery == "–" else int(machinery)), name
        assert c.bonus == 0, name
        if name.endswith(" ★"):
            starred.append(c.index)
    assert sorted(T.CC_START) == starred
    assert sorted(T.CC_DECK) == [c.index for c in cards]  # one card of each design


def check_mc_companies(T: Any) -> None:
    rows = md_rows(PAGE_MC_COMPANIES)
    assert rows[0] == ["Company", "Industry", "Cost", "Base", "MC slots",
                       "Employee slot (WC, optional)", "Bonus", "Employee wage L1/L2/L3"]
    cards = sector_cards(T, "mc")
    assert [c.name for c in cards] == [r[0].removesuffix(" ★") for r in rows[1:]]
    starred = []
    for c, (name, industry, cost, base, mc_slots, employee, bonus, wages) in zip(cards, rows[1:]):
        assert (c.industry, c.cost, c.production) == (
            INDUSTRY_NAMES.index(industry), int(cost), int(base)), name
        want = [(s, True, False) for s in skills_of(mc_slots.replace("MC ", ""))]
        if employee != "–":
            want.append((skills_of(employee.removeprefix("skilled "))[0], False, True))
        assert slot_tuples(c) == want, name
        assert c.bonus == (0 if bonus == "–" else int(bonus)), name
        assert c.wages == wages_of(wages), name
        assert (c.machinery, c.automated) == (0, False), name
        if name.endswith(" ★"):
            starred.append(c.index)
    assert sorted(T.MC_START) == starred
    # 15 in the deck: the 13 non-starting designs plus a second copy of each starting design
    assert sorted(T.MC_DECK) == [c.index for c in cards]


def check_public_companies(T: Any) -> None:
    rows = md_rows(PAGE_PUBLIC_COMPANIES)
    assert rows[0] == ["Company", "Industry", "Cost", "Prod", "Slots", "L1/L2/L3",
                       "Copies and use"]
    cards = sector_cards(T, "public")
    assert [c.name for c in cards] == [r[0] for r in rows[1:]]
    copies = Counter(T.PUBLIC_CARDS)
    for c, (name, industry, cost, prod, slots, wages, use) in zip(cards, rows[1:]):
        assert (c.industry, c.cost, c.production) == (
            INDUSTRY_NAMES.index(industry), int(cost), int(prod)), name
        assert slot_tuples(c) == [(s, False, False) for s in skills_of(slots)], name
        assert c.wages == wages_of(wages), name
        assert (c.machinery, c.bonus, c.automated) == (0, 0, False), name
        assert copies[c.index] == int(use.split(";")[0]), name
        assert c.index in (T.PUBLIC_ROW1 if "row 1 in 3–4p" in use else T.PUBLIC_LOWER), name
    assert sorted(T.PUBLIC_ROW1 + T.PUBLIC_LOWER) == [c.index for c in cards]


def check_coop_farm(T: Any) -> None:
    m = re.search(r"\((\d+)\):\*\* (\d+) WC slots \(any WC worker\), (\d+) Food, no cost, no wage",
                  PAGE_COOP)
    assert m
    cards, n_slots, food = (int(g) for g in m.groups())
    c = T.COMPANIES[T.COOP_FARM]
    assert (c.sector, c.industry, c.cost, c.production, c.wages) == ("coop", 0, 0, food, None)
    assert slot_tuples(c) == [(None, False, False)] * n_slots
    assert cards == T.COOP_FARM_CARDS


def check_deals(T: Any) -> None:
    rows = md_rows(PAGE_DEALS)
    assert rows[0] == ["Food", "Lux", "Cost", "Tariff 6A", "Tariff 6B"]
    assert len(T.DEALS) == len(rows) - 1
    for deal, (food, lux, cost, tariff_a, tariff_b) in zip(T.DEALS, rows[1:]):
        want = [0 if v == "–" else int(v) for v in (food, lux, cost)]
        assert [deal.food, deal.lux, deal.cost] == want, deal.id
        goods = deal.food + deal.lux
        assert goods * T.DEAL_TARIFF_PER_GOOD[0] == int(tariff_a), deal.id
        assert goods * T.DEAL_TARIFF_PER_GOOD[1] == int(tariff_b), deal.id
    assert [d.index for d in T.DEALS] == list(range(len(T.DEALS)))


def check_immigration(T: Any) -> None:
    rows = md_rows(PAGE_IMMIGRATION)
    assert rows[0] == ["WC worker", "MC worker", "Cards"]
    want: Counter = Counter()
    for wc, mc, cards in rows[1:]:
        per_industry, total = ints_in(cards)
        for i in range(len(INDUSTRY_NAMES)):
            key = (None if wc == "unskilled" else i, None if mc == "unskilled" else i)
            want[key] += per_industry
        assert per_industry * len(INDUSTRY_NAMES) == total
    assert Counter(T.IMMIGRATION_DECK) == want


def check_population(T: Any) -> None:
    header, values = md_rows(PAGE_POPULATION)
    assert header[0] == "Workers owned" and values[0] == "Population"
    bands = []
    for cell, value in zip(header[1:], values[1:]):
        lo, hi = ((0, int(cell[1:])) if cell.startswith("≤")
                  else (int(cell[1:]), 99) if cell.startswith("≥")
                  else tuple(int(n) for n in cell.split("–")))
        assert T.population(lo) == T.population(hi) == int(value), cell
        bands.append((lo, int(value)))
    assert tuple(bands) == T.POPULATION_BANDS


def check_prosperity(T: Any) -> None:
    wc_line, mc_line = PAGE_PROSPERITY.strip().splitlines()
    for line, table in ((wc_line, T.WC_PROSPERITY_VP), (mc_line, T.MC_PROSPERITY_VP)):
        cells = line.split("score VP ")[1].rstrip(".").split(",")
        values: list[int] = []
        for i, cell in enumerate(cells):
            if cell == "…":  # a run up to the next value
                values += range(values[-1] + 1, int(cells[i + 1]))
            else:
                values.append(int(cell))
        assert tuple(values) == table
        assert ints_in(line)[:2] == [0, len(table) - 1]  # "positions 0–10"


def check_price_steps(T: Any) -> None:
    rows = md_rows(PAGE_PRICE_STEPS)
    assert rows[0] == ["Resource", "Low", "Mid", "High"]
    assert [r[0] for r in rows[1:]] == list(GOOD_NAMES)
    assert tuple(tuple(int(v) for v in r[1:]) for r in rows[1:]) == T.PRICE_STEPS


def check_imf(T: Any) -> None:
    before, after = md_rows(PAGE_IMF)
    assert before[0] == "Before" and after[0] == "After"
    moved = {(int(b[0]) - 1, "ABC".index(b[1])): "ABC".index(a[1])
             for b, a in zip(before[1:], after[1:])}
    assert all(int(b[0]) == int(a[0]) for b, a in zip(before[1:], after[1:]))
    want = {(p, s): moved.get((p, s), s) for p in range(7) for s in range(3)}
    assert want == T.IMF_SHIFT


def check_tax_multiplier(T: Any) -> None:
    rows = md_rows(PAGE_TAX_MULTIPLIER)
    assert rows[0][1:] == ["0", "1", "2", "3", "4"]
    for p3, row in enumerate(rows[1:]):
        assert row[0] == "ABC"[p3]
        for p4 in range(3):
            for p5 in range(3):
                mods = T.TM_MOD[p4] + T.TM_MOD[p5]
                assert T.tax_multiplier(p3, p4, p5) == int(row[1 + mods]), (p3, p4, p5)
    assert sorted({T.TM_MOD[a] + T.TM_MOD[b] for a in range(3) for b in range(3)}) == [
        0, 1, 2, 3, 4]


def check_income_tax(T: Any) -> None:
    rows = md_rows(PAGE_INCOME_TAX)
    assert rows[0] == ["", "3A", "3B", "3C"]
    assert [r[0] for r in rows[1:]] == ["2A", "2B", "2C"]
    assert tuple(tuple(int(v) for v in r[1:]) for r in rows[1:]) == T.INCOME_TAX_RATE


def check_corporate_tax(T: Any) -> None:
    rows = md_rows(PAGE_CORPORATE_TAX)
    assert rows[0][0] == "Revenue after employment tax"
    lows = [0 if c.startswith("<") else int(re.match(r"\d+", c)[0]) for c in rows[0][1:]]
    assert tuple(lows) == T.CORPORATE_TAX_BANDS
    highs = [lo - 1 for lo in lows[1:]] + [lows[-1] + 1000]
    for p3, row in enumerate(rows[1:]):
        assert row[0] == f"3{'ABC'[p3]}"
        for lo, hi, value in zip(lows, highs, row[1:]):
            assert T.corporate_tax(p3, lo) == T.corporate_tax(p3, hi) == int(value), (p3, lo)


def check_state_influence(T: Any) -> None:
    levels, gained = md_rows(PAGE_STATE_INFLUENCE)
    assert levels[0] == "Lowest Legitimacy" and gained[0] == "Influence gained"
    assert [int(v) for v in levels[1:]] == list(range(1, len(T.STATE_INFLUENCE)))
    assert (0, *(int(v) for v in gained[1:])) == T.STATE_INFLUENCE


def check_wealth(T: Any) -> None:
    levels, capital = md_rows(PAGE_WEALTH)
    assert levels[0] == "Level" and capital[0] == "Capital ≥"
    assert [int(v) for v in levels[1:]] == list(range(len(T.WEALTH_THRESHOLDS)))
    assert tuple(int(v) for v in capital[1:]) == T.WEALTH_THRESHOLDS
    for level, need in enumerate(T.WEALTH_THRESHOLDS):
        assert T.wealth_level(need) == level
        assert T.wealth_level(need - 1) == max(level - 1, 0)


def check_policy_vp(T: Any) -> None:
    rows = md_rows(PAGE_POLICY_VP)
    assert rows[0][1:] == ["1", "2", "3", "4", "5"]
    assert rows[1][0] == "VP [M] (WC, MC, CC)"
    assert (0, *(int(v) for v in rows[1][1:])) == T.END_POLICY_VP
    assert rows[2][0].startswith("MC VP, **Variant** `mc_policy_vp")
    assert (0, *(int(v) for v in rows[2][1:])) == T.END_POLICY_VP_MC_PUBLISHED


def check_policy_table(T: Any) -> None:
    rows = md_dict(PAGE_POLICY_TABLE)
    fiscal = [ints_in(c) for c in rows["1 Fiscal"][:3]]
    assert tuple(f[0] for f in fiscal) == T.PUBLIC_SECTOR_SIZE
    assert tuple(f[1] for f in fiscal) == T.IMF_LOAN_THRESHOLD
    assert tuple(ints_in(c)[0] - 1 for c in rows["2 Labour Market"][:3]) == T.MIN_WAGE_LEVEL
    taxation = [ints_in(c) for c in rows["3 Taxation"][:3]]
    assert tuple(t[0] for t in taxation) == T.TM_BASE
    assert tuple(t[1] for t in taxation) == T.TM_FACTOR
    health = rows["4 Health & Benefits"][:3]
    assert tuple(
        0 if c.startswith("public Health free") else int(re.match(r"(\d+)₳", c)[1])
        for c in health) == T.PUBLIC_SERVICE_PRICE
    assert tuple(int(re.search(r"mod \+?(\d+)", c)[1]) for c in health) == T.TM_MOD
    trade = [ints_in(c) for c in rows["6 Foreign Trade"][:3]]
    assert tuple((t[0], t[1]) for t in trade) == T.FOREIGN_TARIFF
    assert tuple(t[2] for t in trade) == T.DEALS_PER_ROUND
    assert tuple(ints_in(c)[0] for c in rows["7 Immigration"][:3]) == T.IMMIGRATION_PER_ROUND


def check_buy_sources(T: Any) -> None:
    rows = md_dict(PAGE_BUY_SOURCES)
    state = rows["State"][5]
    m = re.search(r"by p4/p5 \((\d+)/(\d+)/(\d+)\); Media Influence (\d+)", state)
    assert m and tuple(int(g) for g in m.groups()[:3]) == T.PUBLIC_SERVICE_PRICE
    assert int(m[4]) == T.MEDIA_INFLUENCE_PRICE
    m = re.match(r"base \(Food (\d+), Lux (\d+)\) \+ tariff by p6 "
                 r"\(Food (\d+)/(\d+)/(\d+), Lux (\d+)/(\d+)/(\d+)\)", rows["Foreign Market"][5])
    assert m
    foreign = [int(g) for g in m.groups()]
    assert tuple(foreign[:2]) == T.FOREIGN_BASE
    food, lux = foreign[2:5], foreign[5:8]
    assert tuple(zip(food, lux)) == T.FOREIGN_TARIFF


def check_inventory(T: Any) -> None:
    rows = md_dict(PAGE_INVENTORY)
    cc, cc_deck, cc_start, mc, mc_deck, mc_start, public, coop = ints_in(
        rows["Company cards"][0])
    assert (cc_deck, cc_start, cc) == (len(T.CC_DECK), len(T.CC_START),
                                       len(T.CC_DECK) + len(T.CC_START))
    assert (mc_deck, mc_start, mc) == (len(T.MC_DECK), len(T.MC_START),
                                       len(T.MC_DECK) + len(T.MC_START))
    assert (public, coop) == (len(T.PUBLIC_CARDS), T.COOP_FARM_CARDS)
    assert ints_in(rows["Immigration / Business Deal / Loan"][0]) == [
        len(T.IMMIGRATION_DECK), len(T.DEAL_DECK), T.LOAN_CARDS]
    for label, value in (("Voting cubes", T.VOTING_CUBES), ("Bill markers", T.BILL_MARKERS),
                         ("Influence cubes", T.INFLUENCE_CUBES),
                         ("Machinery tokens", T.MACHINERY_TOKENS),
                         ("Strike tokens", T.STRIKE_TOKENS), ("Storage tiles", T.STORAGE_TILES),
                         ("Legitimacy tokens", T.LEGITIMACY_TOKENS)):
        assert ints_in(rows[label][0])[0] == value, label
    spaces = T.COMPANY_SPACES
    assert ints_in(rows["Company spaces"][0]) == [spaces["cc"], spaces["mc"], spaces["public"]]


def check_per_class(T: Any) -> None:
    rows = md_dict(PAGE_PER_CLASS)
    assert rows[""] == ["WC", "MC", "CC", "State"]
    assert tuple(ints_in(c)[0] for c in rows["Money"]) == T.START_MONEY
    assert tuple(ints_in(c)[0] for c in rows["Influence"]) == T.START_INFLUENCE
    for cell, table in ((rows["Resources"][1], T.MC_START_STORAGE),
                        (rows["Resources"][2], T.CC_START_STORAGE)):
        held = {g: int(n) for n, g in re.findall(r"(\d+) (Food|Lux|Health|Edu)", cell)}
        assert table == tuple(held.get(g, 0) for g in GOOD_NAMES), cell
    capacity = rows["Storage capacity"]
    assert (int(re.match(r"(\d+) per resource", capacity[1])[1]),) * 4 == T.MC_STORAGE_CAP
    food, rest = re.match(r"Food (\d+); Lux, Health, Edu (\d+) each", capacity[2]).groups()
    assert (int(food), int(rest), int(rest), int(rest)) == T.CC_STORAGE_CAP
    assert ints_in(capacity[3]) == [T.STATE_STOCK_MARGIN] * 2
    food, rest = re.match(r"Food (\d+); Lux, Health, Edu (\d+)", rows["Prices"][1]).groups()
    mid = [step[T.START_PRICE_STEP] for step in T.PRICE_STEPS]
    assert mid == [int(food), int(rest), int(rest), int(rest)]
    assert rows["Prices"][2] == "same as MC"
    for cell in rows["Tracks"][:2]:
        workers, pop = ints_in(cell)[:2]
        assert T.population(workers) == pop
    start, again, again2, lo, hi = ints_in(rows["Tracks"][3])
    assert (start, again, again2, lo, hi) == (T.START_LEGITIMACY,) * 3 + (
        T.LEGITIMACY_MIN, T.LEGITIMACY_MAX)
    market = rows["Company market"]
    assert (ints_in(market[1]), ints_in(market[2])) == ([T.MARKET_SIZE["mc"]],
                                                        [T.MARKET_SIZE["cc"]])
    assert [int(v) for v in rows["Bill markers"]] == [T.BILL_MARKERS] * 4
    assert [int(v) for v in rows["Hand"]] == [T.HAND_SIZE] * 4


def check_set_up(T: Any) -> None:
    policies, cc_line, mc_line = PAGE_SET_UP.strip().splitlines()
    found = re.findall(r"(\d)([ABC])", policies)
    assert [int(p) for p, _ in found] == list(range(1, 8))
    assert tuple("ABC".index(s) for _, s in found) == T.START_POLICIES
    assert T.tax_multiplier(*T.START_POLICIES[2:5]) == T.START_TAX_MULTIPLIER
    for line, start in ((cc_line, T.CC_START), (mc_line, T.MC_START)):
        names = re.match(r"- [CM]C starts with (.+), (?:all|both) at L(\d)\.", line)
        assert names
        listed = re.split(r", | and ", names[1])
        assert [T.COMPANIES[i].name for i in start] == listed
        assert int(names[2]) - 1 == T.START_WAGE_LEVEL


def check_start_workers(T: Any) -> None:
    blocks = re.split(r"^- \*\*", PAGE_START_WORKERS.strip(), flags=re.M)[1:]
    assert len(blocks) == 2
    for cls, block in enumerate(blocks):
        head, *items = block.splitlines()
        assert head.startswith(("WC", "MC")[cls])
        total = ints_in(head)[0]
        names, unemployed = [], items[-1]
        counted = 0
        for item in items[:-1]:
            name, slots = re.match(r"\s+- (.+?): (.+)\.$", item).groups()
            c = next(c for c in T.COMPANIES if c.name == name)
            names.append(name)
            m = re.match(r"its MC (\w+) slot", slots)
            want = ([(INDUSTRY_NAMES.index(m[1]), True, False)] if m
                    else [(s, False, False) for s in skills_of(slots)])
            assert [s for s in slot_tuples(c) if not s[2]] == want, name
            counted += len(want)
        assert [T.COMPANIES[i].name for i in T.START_STAFFED[cls]] == names
        assert unemployed.strip().startswith("- Unemployed:")
        unskilled = re.search(r"(\d+) unskilled", unemployed)
        skilled = re.search(r"(\d+) skilled worker of MC's choice", unemployed)
        cards = re.search(r"each of (\d+) Immigration cards", unemployed)
        assert T.START_UNEMPLOYED_UNSKILLED[cls] == (int(unskilled[1]) if unskilled else 0)
        assert T.START_UNEMPLOYED_SKILLED_CHOICE[cls] == (int(skilled[1]) if skilled else 0)
        assert T.START_IMMIGRATION_CARDS[cls] == int(cards[1])
        assert total == counted + T.START_UNEMPLOYED_UNSKILLED[cls] + \
            T.START_UNEMPLOYED_SKILLED_CHOICE[cls] + T.START_IMMIGRATION_CARDS[cls]


def check_conflicts(T: Any) -> None:
    """§12 'Company data conflicts (settled from card images)', bullet by bullet."""
    bullets = PAGE_CONFLICTS.strip().splitlines()
    assert len(bullets) == 10
    for bullet in bullets:
        text = bullet.removeprefix("- ").replace("**", "")
        subject, claim = re.match(r"(.+?)(?::| is) (.+?)\.(?:\s|$)", text).groups()
        attribute = None
        for word in ("wages", "machinery"):
            if subject.endswith(f" {word}"):
                subject, attribute = subject.removesuffix(f" {word}"), word
        for name in subject.split(" and "):
            c = card(T, name, "cc")
            if attribute == "wages":
                assert c.wages == wages_of(claim), bullet
            elif attribute == "machinery":
                assert c.machinery == int(claim), bullet
            elif claim == "no machinery bonus":
                assert c.machinery == 0, bullet
            elif claim.startswith("cost "):
                assert c.cost == int(claim.removeprefix("cost ")), bullet
            else:
                slots, _, production = claim.partition(", production ")
                assert slot_tuples(c) == [(s, False, False) for s in skills_of(slots)], bullet
                if production:
                    assert c.production == int(production), bullet


def check_sentences(T: Any) -> None:
    for getter, pattern, sentence in PAGE_SENTENCES:
        m = re.search(pattern, sentence)
        assert m, pattern
        want = getter(T)
        want = tuple(want) if isinstance(want, tuple) else (want,)
        assert tuple(int(g) for g in m.groups()) == want, sentence


PAGE_CHECKS: tuple[Callable[[Any], None], ...] = (
    check_cc_companies, check_mc_companies, check_public_companies, check_coop_farm,
    check_deals, check_immigration, check_population, check_prosperity, check_price_steps,
    check_imf, check_tax_multiplier, check_income_tax, check_corporate_tax,
    check_state_influence, check_wealth, check_policy_vp, check_policy_table, check_buy_sources,
    check_inventory, check_per_class, check_set_up, check_start_workers, check_conflicts,
    check_sentences,
)


@pytest.mark.parametrize("check", PAGE_CHECKS, ids=lambda c: c.__name__.removeprefix("check_"))
def test_data_matches_the_page(check):
    check(D)


# -- decks and the API the engine is written against ------------------------------------------------


def test_deck_sizes_and_copies():
    names = {i: D.COMPANIES[i].id for i in range(len(D.COMPANIES))}
    assert len(D.CC_DECK) == 24 and len(set(D.CC_DECK)) == 24
    assert [names[i] for i in D.CC_START] == ["supermarket", "shopping_mall", "college", "clinic"]
    assert set(D.CC_START) <= set(D.CC_DECK)  # starting copies are extra copies of deck designs
    assert len(D.MC_DECK) == 15 and len(set(D.MC_DECK)) == 15
    assert [names[i] for i in D.MC_START] == ["convenience_store", "doctors_office"]
    assert len(set(D.MC_DECK) - set(D.MC_START)) == 13  # + the two second copies
    assert len(D.PUBLIC_CARDS) == 12
    assert [names[i] for i in D.PUBLIC_ROW1] == [
        "university_hospital", "technical_university", "national_public_broadcasting"]
    assert [names[i] for i in D.PUBLIC_LOWER] == [
        "public_hospital", "public_university", "regional_tv_station"]
    copies = Counter(D.PUBLIC_CARDS)
    assert [copies[i] for i in D.PUBLIC_ROW1 + D.PUBLIC_LOWER] == [1, 1, 1, 3, 3, 3]
    assert len(D.DEALS) == 10 and len(D.DEAL_DECK) == 20
    assert set(Counter(D.DEAL_DECK).values()) == {2}
    assert len(D.IMMIGRATION_DECK) == 25
    split = Counter(D.IMMIGRATION_DECK)
    for i in range(5):
        assert split[(None, i)] == 3 and split[(i, None)] == 2
    assert D.COMPANIES[D.COOP_FARM].id == "cooperative_farm" and D.COOP_FARM_CARDS == 2


def test_api_names_and_meanings():
    assert D.INDUSTRIES == ("agri", "lux", "health", "edu", "media")
    assert D.RESOURCES == ("food", "lux", "health", "edu", "influence")
    assert D.RESOURCES[:4] == D.GOODS
    assert (D.CLASSES, D.SECTIONS) == (("WC", "MC", "CC", "ST"), ("A", "B", "C"))
    assert [c.index for c in D.COMPANIES] == list(range(len(D.COMPANIES)))
    assert all(D.COMPANY_BY_ID[c.id] is c for c in D.COMPANIES)
    assert len(D.COMPANY_BY_ID) == len(D.COMPANIES) == 24 + 15 + 6 + 1
    doctors = D.COMPANY_BY_ID["doctors_office"]
    assert doctors.name == "Doctor's Office" and doctors.sector == "mc"
    assert doctors.slots == (D.Slot(2, mc=True), D.Slot(None, employee=True))
    assert D.COMPANY_BY_ID["tv_station"].slots == (D.Slot(4), D.Slot(None), D.Slot(None))
    assert D.COMPANY_BY_ID["hotel"].machinery == 0
    assert D.COMPANY_BY_ID["automated_grain_farm"].automated
    assert D.START_POLICIES == (2, 1, 0, 1, 2, 1, 1) and D.START_PRICE_STEP == 1
    assert D.START_TAX_MULTIPLIER == D.tax_multiplier(0, 1, 2) == 5
    assert D.MONEY_PER_VP == (10, 15, None, 30)
    assert (D.TM_BASE, D.TM_FACTOR, D.TM_MOD) == ((3, 2, 1), (2, 1, 0), (2, 1, 0))
    assert len(D.IMF_SHIFT) == 21 and D.IMF_SHIFT[(1, 1)] == 2 and D.IMF_SHIFT[(0, 2)] == 2
    assert len(D.STATE_INFLUENCE) == 11 and D.STATE_INFLUENCE[0] == 0
    assert (D.population(11), D.population(12), D.population(0)) == (3, 4, 3)
    assert (D.wealth_level(-5), D.wealth_level(9), D.wealth_level(10)) == (0, 0, 1)
    assert D.corporate_tax(0, -3) == 0
    with pytest.raises(AttributeError):
        D.COMPANIES[0].cost = 1  # frozen


# -- every number of every file is caught ---------------------------------------------------------------

_NOT_TABLES = {"DATA_DIR", "DATA_FILES"}


def _number_paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Paths of every number in a json tree (booleans and null are not numbers)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _number_paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _number_paths(v, (*path, i))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield path


def _load_copy(tmp: Path, name: str | None = None, raw: dict | None = None) -> SimpleNamespace:
    """Run data.py on copies of the four files, ``name`` replaced by ``raw``; raise what it
    raises."""
    tmp.mkdir(parents=True, exist_ok=True)
    for file in D.DATA_FILES:
        shutil.copy(D.DATA_DIR / file, tmp / file)
    if name is not None:
        (tmp / name).write_text(json.dumps(raw), encoding="utf-8")
    module = ModuleType("hegemony_data_copy")  # dataclasses look their module up by name
    module.__file__ = str(tmp / "data.py")
    sys.modules[module.__name__] = module
    try:
        exec(_DATA_CODE, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return SimpleNamespace(**vars(module))


_DATA_CODE = compile(Path(D.__file__).read_text(encoding="utf-8"), "data_copy.py", "exec")


def _failing_checks(T: Any) -> list[str]:
    failed = []
    for check in PAGE_CHECKS:
        try:
            check(T)
        except (AssertionError, LookupError, TypeError, ValueError):
            failed.append(check.__name__)
    return failed


def test_an_unchanged_copy_passes_every_check(tmp_path):
    T = _load_copy(tmp_path)
    assert _failing_checks(T) == []
    public = [k for k in vars(D) if k.isupper() and k not in _NOT_TABLES]
    assert [_plain(getattr(T, k)) for k in public] == [_plain(getattr(D, k)) for k in public]


def _plain(value):
    """``value`` as a repr with every set sorted (a set's order depends on string hashing)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_plain(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_plain(k)}: {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return repr(value)


@pytest.mark.parametrize("name", D.DATA_FILES)
def test_every_number_in_each_file_is_checked_against_the_page(tmp_path, name):
    """Changing any one number of a json file either breaks the loader (naming the file) or
    makes some page check fail: no number goes unchecked."""
    raw = D.load_raw(name)
    unchecked = []
    paths = list(_number_paths(raw))
    assert paths
    for i, path in enumerate(paths):
        changed = copy.deepcopy(raw)
        node = changed
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] += 1
        try:
            T = _load_copy(tmp_path / str(i), name, changed)
        except Exception as exc:  # rejected by the loader: it must say which file
            assert type(exc).__name__ == "DataError" and str(exc).startswith(f"{name}: "), exc
            continue
        if not _failing_checks(T):
            unchecked.append("/".join(map(str, path)))
    assert not unchecked, f"{name}: numbers no page check catches: {unchecked}"


# -- a damaged file fails naming the file and the entry ---------------------------------------------


def _set(path: str, value: Any) -> Callable[[dict], None]:
    """A change to a json tree: the value at 'key/0/key' becomes ``value``."""
    def change(raw: dict) -> None:
        *keys, last = (int(k) if k.isdigit() else k for k in path.split("/"))
        node = raw
        for key in keys:
            node = node[key]
        node[last] = value
    return change


DAMAGE = [
    ("companies.json", "cc/8/industry", "wood", "companies.json: cc hotel.industry"),
    ("companies.json", "cc/0/wages", [25, 20, 15], "companies.json: cc supermarket.wages"),
    ("companies.json", "cc/8/machinry", 9, "companies.json: cc hotel: unknown keys"),
    ("companies.json", "cc/1/id", "supermarket", "companies.json: companies: duplicate ids"),
    ("companies.json", "cc/23/slots", ["lux", "U", "U"], "companies.json: cc tv_station.slots[0]"),
    ("companies.json", "cc/4/wages", [1, 2, 3], "companies.json: cc automated_grain_farm"),
    ("companies.json", "mc/3/employee", "media", "companies.json: mc game_store.employee"),
    ("companies.json", "mc/10/bonus", 2, "companies.json: mc fast_food_restaurant"),
    ("companies.json", "public/0/cost", "30", "companies.json: public university_hospital.cost"),
    ("companies.json", "start/cc", ["pharmacy"], "companies.json: start.cc"),
    ("deals.json", "deals/0/lux", 0, "deals.json: deal lux8_for30"),
    ("deals.json", "deals/3/copies", 0, "deals.json: deal food6_for40.copies"),
    ("immigration.json", "cards/0/wc", "chef", "immigration.json: cards[0].wc"),
    ("tables.json", "wealth/thresholds", [0, 10, 25], "tables.json: wealth.thresholds"),
    ("tables.json", "imf/shift/2A", "2C", "tables.json: imf.shift.2A"),
    ("tables.json", "set_up/workers/WC/staffed", ["bakery"], "tables.json: set_up.workers.WC"),
    ("tables.json", "taxes/corporate_tax/3B", [0, 2], "tables.json: taxes.corporate_tax.3B"),
    ("tables.json", "prices/steps/lux", [8, 5, 10], "tables.json: prices.steps.lux"),
    ("tables.json", "set_up/tax_multiplier", 6, "tables.json: set_up.tax_multiplier"),
    ("tables.json", "set_up/wage_level", "L4", "tables.json: set_up.wage_level"),
    ("tables.json", "loans/interest", -5, "tables.json: loans.interest"),
]


@pytest.mark.parametrize(("name", "path", "value", "message"), DAMAGE,
                         ids=[f"{d[0]}:{d[1]}" for d in DAMAGE])
def test_a_damaged_file_fails_naming_the_file_and_the_entry(tmp_path, name, path, value,
                                                            message):
    raw = D.load_raw(name)
    _set(path, value)(raw)
    with pytest.raises(Exception) as caught:
        _load_copy(tmp_path, name, raw)
    assert type(caught.value).__name__ == "DataError"
    assert str(caught.value).startswith(message), str(caught.value)


def test_the_checker_functions_reject_a_damaged_copy():
    raw = D.load_raw("companies.json")
    raw["mc"][1]["wages"] = None  # Doctor's Office keeps its employee slot and bonus
    with pytest.raises(DataError, match=r"^companies\.json: mc doctors_office: "):
        D.build_companies(raw)
    deals = D.load_raw("deals.json")
    del deals["deals"][2]["cost"]
    with pytest.raises(DataError, match=r"^deals\.json: deal lux12_for50: missing key 'cost'"):
        D.build_deals(deals)
    cards = D.load_raw("immigration.json")
    cards["cards"][4]["copies"] = True
    with pytest.raises(DataError, match=r"^immigration\.json: cards\[4\]\.copies"):
        D.build_immigration(cards)
    tables = D.load_raw("tables.json")
    del tables["actions"]["lobby_cost"]
    with pytest.raises(DataError, match=r"^tables\.json: actions: missing key 'lobby_cost'"):
        D.build_tables(tables, {c.id: c.index for c in D.COMPANIES})


def test_a_file_that_is_not_json_fails_naming_the_file(tmp_path):
    (tmp_path / "deals.json").write_text("{ not json", encoding="utf-8")
    with pytest.raises(DataError, match=r"^deals\.json: cannot be read"):
        D.load_raw("deals.json", tmp_path)
