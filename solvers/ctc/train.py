"""Training the CTC network per MILP family: label instances with SCIP (resumable, cached), then fit the
variable marginals and the CTC rows with Adam, validating every epoch on labelled dev instances (CTC
recall at k = number of true CTC rows, marginal accuracy on binaries); checkpoints with config and sha256.

    frontierco train ctc --family setcover                 # label (if needed) and train
    frontierco train ctc --family setcover --resume        # continue training
    frontierco train ctc --family facility --train 24 --label-time 20 --jobs 2
    frontierco train ctc --family setcover --calibrate milp-setcover-hard --results leaderboards/references
    frontierco train ctc --family setcover --tune milp-setcover-hard   # then the trust by the dev integral

Instances are the suite's Gasse et al. generators at the sizes of the ``milp-FAMILY-SIZE`` collection
(``--size easy``, the default, or ``hard``: its generator and parameters); training seeds 30000.., dev seeds
31000.. (the collections' own instances are never trained on).

    frontierco train ctc --family indset --size hard --label-time 30 --export runs/ctc/hard-checkpoints
"""

from __future__ import annotations

import argparse
import logging
import tomllib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from frontierco.registry import INSTANCES_DIR
from frontierco.workspace import Context

from .checkpoint import SHIPPED, export
from .features import Graph, analyse_instance, build_graph, lp_relaxation, signature
from .labels import BUDGET, KEEP, TIGHT_SHARE, make_labels
from .model import CTCNet, ModelConfig, loss

log = logging.getLogger("frontierco.ctc")
FAMILIES = ("setcover", "cauction", "facility", "indset")
TRAIN_SEED, DEV_SEED = 30000, 31000


def family_instance(family: str, seed: int, size: str = "easy") -> Any:
    """An instance of the family made as the ``milp-FAMILY-SIZE`` collection makes its own."""
    from frontierco.problems.generate import generate

    manifest = tomllib.loads((INSTANCES_DIR / "generated" / f"milp-{family}-{size}.toml").read_text())
    return generate(manifest["generator"], f"ctc-{family}-{seed}", seed, dict(manifest.get("params", {}))).instance


@dataclass
class Example:
    graph: Graph
    marginals: torch.Tensor
    ctc: torch.Tensor
    signature: np.ndarray


def label_one(family: str, seed: int, time_limit: float, folder: Path, size: str = "easy", solves: int = 1) -> Path | None:
    """Label one instance into ``folder/SEED.pt`` (skipped when present); None when SCIP found nothing."""
    target = folder / f"{seed}.pt"
    if target.is_file():
        return target
    torch.set_num_threads(1)
    instance = family_instance(family, seed, size)
    rows = analyse_instance(instance)
    labels = make_labels(instance, rows, time_limit, solves)
    if labels is None:
        return None
    graph = build_graph(instance, rows, lp_relaxation(instance))
    folder.mkdir(parents=True, exist_ok=True)
    payload = {
        "graph": asdict(graph),
        "marginals": torch.from_numpy(labels.marginals).float(),
        "ctc": torch.from_numpy(np.concatenate([labels.ctc, [False]])),
        "signature": signature(rows),
        "objectives": labels.objectives,
    }
    torch.save(payload, folder / f"{seed}.tmp")
    (folder / f"{seed}.tmp").replace(target)
    return target


def label_all(family: str, seeds: list[int], time_limit: float, folder: Path, jobs: int, size: str = "easy", solves: int = 1) -> list[Path]:
    from rich.progress import track

    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(label_one, family, seed, time_limit, folder, size, solves) for seed in seeds]
        done = [f.result() for f in track(futures, description=f"labelling {family}", transient=True)]
    return [p for p in done if p is not None]


def load_example(path: Path) -> Example:
    payload = torch.load(path, weights_only=False)
    return Example(Graph(**payload["graph"]), payload["marginals"], payload["ctc"], np.asarray(payload["signature"]))


def metrics(net: CTCNet, examples: list[Example]) -> dict[str, float]:
    """CTC recall at k (k = true CTC rows of the instance) and marginal accuracy on binaries, averaged."""
    recalls, accuracies = [], []
    net.eval()
    with torch.no_grad():
        for example in examples:
            variable_logits, constraint_logits = net(example.graph)
            truth = example.ctc & example.graph.inequality
            k = int(truth.sum())
            if k:
                scores = constraint_logits.masked_fill(~example.graph.inequality, float("-inf"))
                recalls.append(float(truth[scores.topk(k).indices].float().mean()))
            binary = example.graph.binary
            if bool(binary.any()):
                agree = (variable_logits[binary] > 0) == (example.marginals[binary] > 0.5)
                accuracies.append(float(agree.float().mean()))
    net.train()
    return {"ctc_recall_at_k": float(np.mean(recalls)) if recalls else float("nan"), "marginal_accuracy": float(np.mean(accuracies))}


def train(
    family: str,
    examples: list[Example],
    dev: list[Example],
    epochs: int,
    lr: float,
    seed: int,
    out: Path,
    resume: bool,
    config: ModelConfig,
) -> tuple[CTCNet, list[dict[str, Any]]]:
    torch.manual_seed(seed)
    net = CTCNet(config)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    history: list[dict[str, Any]] = []
    state_path = out / family / "state.pt"
    if resume and state_path.is_file():
        state = torch.load(state_path, weights_only=False)
        net.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        history = state["history"]
    from rich.progress import track

    rng = np.random.default_rng(seed + len(history))
    for epoch in track(range(len(history), epochs), description=f"training ctc {family}", transient=True):
        losses = []
        for index in rng.permutation(len(examples)):
            example = examples[index]
            value = loss(net(example.graph), example.graph, example.marginals, example.ctc)
            optimizer.zero_grad(set_to_none=True)
            value.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            losses.append(value.item())
        history.append({"epoch": epoch + 1, "loss": float(np.mean(losses)), **metrics(net, dev)})
        log.info("epoch %d %s", epoch + 1, history[-1])
        state_path.parent.mkdir(parents=True, exist_ok=True)
        torch.save({"model": net.state_dict(), "optimizer": optimizer.state_dict(), "history": history}, state_path)
    return net, history


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="frontierco train ctc", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", required=True, choices=FAMILIES)
    parser.add_argument("--size", default="easy", choices=("easy", "hard"), help="instances as the milp-FAMILY-SIZE collection makes them")
    parser.add_argument("--train", type=int, default=24, help="training instances")
    parser.add_argument("--dev", type=int, default=4, help="dev instances")
    parser.add_argument("--label-time", type=float, default=20.0, help="SCIP seconds per labelling solve")
    parser.add_argument("--label-seeds", type=int, default=1, help="labelling solves per instance (SCIP seed shifts 0..N-1), pooled")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--message", default="linear", choices=("linear", "mlp"), help="the half convolutions' message (model.HalfConv)")
    parser.add_argument("--no-abstract", action="store_true", help="ablation: the instance modality alone")
    parser.add_argument("--jobs", type=int, default=1, help="instances labelled at once")
    parser.add_argument("--out", type=Path, default=None, help="labels and training state (default: the workspace's runs/ctc)")
    parser.add_argument("--export", type=Path, default=SHIPPED)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--calibrate", metavar="COLLECTION", help="calibrate the exported checkpoint on this collection; no training")
    parser.add_argument("--tune", metavar="COLLECTION", help="choose the calibrated checkpoint's trust by the dev integral; no training")
    parser.add_argument("--split", default="dev", help="the calibration's (or tuning's) split")
    parser.add_argument("--results", type=Path, default=None, help="runs whose best solutions calibrate (default: reference runs)")
    args = parser.parse_args(argv)
    if args.label_seeds < 1:
        parser.error(f"--label-seeds must be at least 1, got {args.label_seeds}")
    return args


def main(argv: list[str], context: Context | None = None) -> None:
    """The entry point (``frontierco train ctc`` hands its context over; run alone, the workspace is found here)."""
    args = parse(argv)
    context = context if context is not None else Context.discover()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    torch.set_num_threads(1)
    if args.calibrate:
        from frontierco.registry import Registry
        from frontierco.results import ResultStore

        from .calibrate import calibrate

        store = ResultStore(args.results or context.required().references)
        calibration = calibrate(args.export / f"{args.family}.pt", args.calibrate, args.split, store, Registry.of(context))
        print(f"calibrated {args.family} on {args.calibrate} ({args.split}): {calibration['trust']}")
        return
    args.out = args.out or context.required().training / "ctc"
    if args.tune:
        from frontierco.registry import Registry
        from frontierco.results import ResultStore

        from .tune import tune

        store = ResultStore(args.out / args.family / "tuning")
        tuning = tune(args.export / f"{args.family}.pt", args.tune, args.split, store, Registry.of(context), context)
        means = {name: round(float(np.mean(list(values.values()))), 4) for name, values in tuning["integrals"].items()}
        chosen = tuning["chosen"]
        print(f"tuned {args.family} on {args.tune} ({args.split}): {chosen} {tuning['candidates'][chosen]}; mean integrals {means}")
        return
    # v2: rows tied at the budget all kept (older caches break ties by index)
    sized = "" if args.size == "easy" else f"-{args.size}"
    pooled = "" if args.label_seeds == 1 else f"-s{args.label_seeds}"
    data = args.out / args.family / f"labels-v2{sized}{pooled}"
    labelling = (args.label_time, data, args.jobs, args.size, args.label_seeds)
    train_paths = label_all(args.family, [TRAIN_SEED + i for i in range(args.train)], *labelling)
    dev_paths = label_all(args.family, [DEV_SEED + i for i in range(args.dev)], *labelling)
    examples, dev = [load_example(p) for p in train_paths], [load_example(p) for p in dev_paths]
    config = ModelConfig(dim=args.dim, layers=args.layers, abstract=not args.no_abstract, message=args.message)
    net, history = train(args.family, examples, dev, args.epochs, args.lr, args.seed, args.out, args.resume, config)
    card = {
        "family": args.family,
        "paper": "Constraint Matters: Multi-Modal Representation for Reducing Mixed-Integer Linear Programming, ICLR 2026",
        "labels": {
            "solver": f"scip {args.label_time:g} s, seed 0" + ("" if args.label_seeds == 1 else f" to {args.label_seeds - 1}, pooled"),
            "keep": KEEP,
            "tight_share": TIGHT_SHARE,
            "budget": BUDGET,
            "ties": "all kept",
        },
        "train": {
            "instances": len(examples),
            "collection": f"milp-{args.family}-{args.size}",
            "dev": len(dev),
            "epochs": args.epochs,
            "lr": args.lr,
            "seed": args.seed,
        },
        "signature": np.mean([e.signature for e in examples], axis=0).round(6).tolist(),
        "dev_metrics": history[-1] if history else None,
        "history": history,
    }
    card = export(net, args.export / f"{args.family}.pt", card)
    print(f"exported {args.export / card['file']}: {card['dev_metrics']}")
