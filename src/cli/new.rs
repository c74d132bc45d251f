//! `gametrace new`: a spec with a random tree, or one that tells the catalogued mistakes apart.

use super::common::*;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Children per internal node
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(u32).range(1..=1000), required_unless_present = "discriminating")]
    pub branching: Option<u32>,
    /// Levels below the root
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=200), required_unless_present = "discriminating")]
    pub depth: Option<u32>,
    /// Instead, a small tree on which the catalogued mistakes print traces different from
    /// the reference's and from each other (a hidden test no buggy program passes), with
    /// a case for every 15-150 searcher; what it cannot tell apart is said in its header
    #[arg(long, conflicts_with_all = ["branching", "depth", "seed", "min", "max"])]
    pub discriminating: bool,
    /// The seed (the same default as `generate:`'s)
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The lowest leaf estimate
    #[arg(long, value_name = "M", default_value_t = -10, allow_hyphen_values = true)]
    pub min: i64,
    /// The highest leaf estimate
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10,
        allow_hyphen_values = true
    )]
    pub max: i64,
}

pub fn execute(a: Args) -> Exit {
    match (a.discriminating, a.branching, a.depth) {
        (false, Some(branching), Some(depth)) => new_spec(crate::game::tree::Generate {
            branching,
            depth,
            seed: a.seed,
            min: a.min,
            max: a.max,
        }),
        _ => print_all(&discriminating_spec()),
    }
}

fn new_spec(g: crate::game::tree::Generate) -> Exit {
    use crate::spec::new::MAX_WRITTEN_NODES;
    if g.min > g.max {
        return Err(Failure::message(format!("error: --min is greater than --max\n  = expected: min <= max\n  =    found: min {} and max {}",
            g.min, g.max)));
    }
    match g.node_count() {
        Some(n) if n <= MAX_WRITTEN_NODES => print_all(&crate::spec::new::spec(&g)),
        n => {
            Err(Failure::message(format!("error: the tree is too large to write out\n  = expected: at most {MAX_WRITTEN_NODES} nodes\n  =    found: {}\n  =     hint: lower --branching or --depth, or write `tree: {{generate: {{branching: {}, depth: {}, seed: {}}}}}` in a spec",
                n.map_or("more than 2^64 nodes".to_owned(), |n| format!("{n} nodes")),
                g.branching,
                g.depth,
                g.seed)))
        }
    }
}

/// `new --discriminating`: the tree the search finds, its coverage in the header.
fn discriminating_spec() -> String {
    use std::fmt::Write as _;
    let (g, text, coverage) = crate::check::coverage::discriminating_tree(40);
    let mut out = format!(
        "# Made by `gametrace new --discriminating`: of the trees tried (3 shapes by size, seeds 0 to 39,\n\
         # then to 399 where S12 Jamboree can meet a tie at the root; estimates -3 to 3), the one on\n\
         # which the most catalogued mistakes print a trace unlike the reference's and unlike each\n\
         # other's (branching {}, depth {}, seed {}).\n",
        g.branching, g.depth, g.seed
    );
    for (name, c) in &coverage {
        let _ = write!(
            out,
            "#   {name}: {} of {} mistakes caught and told apart",
            c.distinguished(),
            c.applicable.len()
        );
        if !c.missed.is_empty() {
            let _ = write!(out, "; passes with {}", c.missed.join(", "));
        }
        for group in &c.alike {
            let _ = write!(out, "; cannot tell {} apart", group.join(" from "));
        }
        for group in &c.inseparable {
            let _ = write!(
                out,
                "; {} print the same trace on every tree",
                group.join(" and ")
            );
        }
        out.push('\n');
    }
    out.push_str(
        "# Every inner node has a static value and every case stops one level above the leaves,\n\
         # so a search that keeps its depth goes on past them and is caught.\n",
    );
    for (rules, algorithm, name, why) in crate::check::coverage::INVISIBLE {
        let _ = writeln!(
            out,
            "# {name} is not counted in {} {algorithm}: {why}.",
            rules.name()
        );
    }
    for (rules, algorithm, names, why) in crate::check::coverage::INSEPARABLE {
        if coverage
            .iter()
            .any(|(_, c)| c.inseparable.iter().any(|g| g.contains(&names[0])))
        {
            let _ = writeln!(
                out,
                "# {} and {} ({} {algorithm}) cannot be told apart on any tree: {why}.",
                names[0],
                names[1],
                rules.name()
            );
        }
    }
    // The generated spec's own first lines name another command; they are left out.
    out.extend(
        text.lines()
            .filter(|l| !l.starts_with("# "))
            .map(|l| format!("{l}\n")),
    );
    out
}
