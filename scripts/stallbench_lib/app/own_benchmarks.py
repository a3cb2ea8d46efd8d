"""The benchmarks the orchestrator's own commands measure: a user's program under `doctor`,
`probe-cost` and `sweep-pool --app` (Benchmark.measured_by). Their parameters and metrics are
declared in C++ like every other's (benches/doctor.cc, benches/pool_sweep.cc, benches/app_metrics.cc),
read here from their family's bench binary, built first unless the command was given --no-build."""
import dataclasses

from .. import build, catalogue, paths
from ..catalogue import Benchmark, Family
from ..errors import UsageError


def declared(family: str, benchmark: str, no_build: bool = False) -> tuple[Family, Benchmark]:
    """(its family as its binary describes it, the benchmark); UsageError when it is not built. The
    family comes without the binary's library versions: the program measured runs its own."""
    target = f"bench_{family.replace('-', '_')}"
    build_dir = paths.build_dir() if no_build else build.ensure_built(target=target)
    binary = build.bench_binaries(build_dir).get(family.replace("-", "_"))
    if binary is None:
        raise UsageError(f"the {family} family is not built in {build_dir} ({target}): run without --no-build")
    described = catalogue.describe(binary)
    found = next((b for b in described.benchmarks if b.name == benchmark), None)
    if found is None or not found.measured_by:
        raise UsageError(f"{binary} declares no {family}/{benchmark} measured by a command (an older build?): "
                         "run without --no-build")
    return dataclasses.replace(described, versions={}), found


def units(benchmark: Benchmark) -> dict[str, str]:
    """metric -> its unit, as a row writes it."""
    return {m.name: m.unit for m in benchmark.metrics}
