"""A small hand-made set of papers for the search tests (not a test module)."""

from __future__ import annotations

import csv
from pathlib import Path

from index_builder.model import Paper
from tests.helpers.paths import TABLE


def _p(pid: str, title: str, **kw: object) -> Paper:
    return Paper(id=pid, title=title, title_raw=title, **kw)  # type: ignore[arg-type]


PAPERS: tuple[Paper, ...] = (
    _p(
        "p01",
        "ProEval: Proactive Failure Discovery for Generative AI Evaluation",
        authors=("Yizheng Huang", "Zi Wang"),
        institutions=("Google DeepMind",),
        topic="Social Aspects->Safety",
        spotlight=True,
        session="Poster Session 2",
        starts_at="2026-07-07T11:00:00-07:00",
    ),
    _p(
        "p02",
        "Graph Neural Networks for Molecules",
        authors=("Xiaoli Zi", "Wang Li"),
        institutions=("Tsinghua University",),
        topic="Deep Learning->Graph Neural Networks",
        session="Poster Session 1",
        starts_at="2026-07-06T11:00:00-07:00",
    ),
    _p(
        "p03",
        "Wang–Landau Sampling of Energy Landscapes",
        authors=("Łukasz Kaiser", "Émile Zola"),
        institutions=("Université de Lorraine",),
        topic="Probabilistic Methods->Monte Carlo and Sampling Methods",
        oral=True,
        spotlight=True,
        session="Poster Session 3",
        starts_at="2026-07-08T11:00:00-07:00",
    ),
    _p(
        "p04",
        "Optimal Transport for Domain Adaptation",
        authors=("Ada Lovelace",),
        topic="Theory->Optimization",
        session="Poster Session 1",
        starts_at="2026-07-06T12:00:00-07:00",
    ),
    _p(
        "p05",
        "Diffusion Models via Optimal Transport",
        authors=("Alan Turing",),
        topic="Deep Learning->Generative Models and Autoencoders",
    ),
    _p("p06", "Watermarking Language Models", authors=("Grace Hopper",)),
    _p("p07", "Robust Watermarks for Images", authors=("Grace Hopper",)),
    _p(
        "p08",
        "A Detector for Synthetic Text",
        abstract="We detect a watermark in generated text.",
        authors=("Claude Shannon",),
    ),
    _p("p09", "Learning Halfspaces with Massart Noise", topic="Theory->Learning Theory"),
    _p("p10", "Universal Rates under Massart Noise", topic="Theory->Learning Theory"),
    _p("p11", "RL4RLA: Teaching ML to Discover Randomized Linear Algebra"),
    _p(
        "p12",
        "Diffusion Language Models at Scale",
        spotlight=True,
        topic="Deep Learning->Large Language Models",
    ),
    _p("p13", "Diffusion Language Models for Code", topic="Deep Learning->Large Language Models"),
    _p(
        "p14",
        "Policy Gradients Revisited",
        abstract="Reinforcement learning agents trained with policy gradients. "
        "Code: https://github.com/x/y",
        code_urls=("https://github.com/x/y",),
        topic="Reinforcement Learning->Deep RL",
    ),
    _p("p15", "Reinforcement Learning from Human Feedback", topic="Reinforcement Learning->Online"),
    _p("p16", "Transformers Are Graph Learners", authors=("Noam Brown",)),
    _p(
        "p17",
        "Efficient Attention Kernels",
        abstract="We speed up transformers with fused attention kernels.",
        authors=("Tri Dao",),
    ),
    _p(
        "p18",
        "Massively Parallel Sampling",
        aliases=("abstract:old-18",),
        institutions=("Carnegie Mellon University",),
        topic="Optimization->Large Scale, Parallel and Distributed",
        session="Oral 1A Sampling",
        oral=True,
        starts_at="2026-07-06T09:00:00-07:00",
    ),
)


def load_table(path: Path = TABLE) -> list[Paper]:
    """Papers of the bundled table (one per Poster row; an Oral row marks it oral)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    orals = {r["title"].strip().casefold() for r in rows if r["event_type"] == "Oral"}

    def split(value: str) -> tuple[str, ...]:
        return tuple(x.strip() for x in value.split("; ") if x.strip())

    return [
        Paper(
            id=f"t{r['event_id']}",
            title=r["title"],
            title_raw=r["title"],
            authors=split(r["authors"]),
            institutions=split(r["institutions"]),
            topic=r["topic"],
            decision=r["decision"],
            oral=r["title"].strip().casefold() in orals,
            spotlight="spotlight" in r["decision"].lower(),
            session=r["session"],
            starts_at=r["starttime"],
            ends_at=r["endtime"],
            url=r["url"],
            openreview_url=r["paper_url"],
            event_id=int(r["event_id"]),
        )
        for r in rows
        if r["event_type"] == "Poster"
    ]
