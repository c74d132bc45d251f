//! Judging results: a task's reference result against a case's `expect`, and an
//! implementation's printed value (found in a raw SML/NJ transcript) against the reference.

pub mod confirm;
pub mod conventions;
pub mod coverage;
pub mod diagnose;
pub mod expected;
pub mod extract;
pub mod judge;
pub mod metrics;
pub mod subject;
pub mod trace;
pub mod transcript;
pub mod unordered;

use crate::notation::{compare, Value};
use crate::spec::{Expect, TaskCase, TaskSpec};
use crate::task::Requires;

/// What a task case gives: its value, or the REQUIRES clause its arguments break.
pub fn reference(spec: &TaskSpec, case: &TaskCase) -> Result<Value, Requires> {
    spec.task.apply(&case.args)
}

/// The case's result as `gametrace run` prints it.
pub fn render(case: &TaskCase, result: &Result<Value, Requires>) -> String {
    match result {
        Ok(v) if case.repl => format!("val it = {v}\n"),
        Ok(v) => format!("{v}\n"),
        Err(r) => format!("REQUIRES violated: {r}\n"),
    }
}

/// Does the reference result agree with what the case expects? If not, why, in lines.
pub fn against_expect(
    spec: &TaskSpec,
    case: &TaskCase,
    result: &Result<Value, Requires>,
) -> Result<(), String> {
    match (&case.expect, result) {
        (Expect::Value(e), Ok(v)) => compare(e, v, &spec.task.result(), case.any_order)
            .map_err(|why| format!("expected: {e}\n  actual: {v}\n{why}")),
        (Expect::Value(e), Err(r)) => Err(format!(
            "expected: {e}\nbut the arguments break {}'s REQUIRES clause: {r}\n(use `expect_error` for a case about invalid input)",
            spec.task.name()
        )),
        (Expect::Error(text), Err(r)) if r.0.contains(text.as_str()) => Ok(()),
        (Expect::Error(text), Err(r)) => Err(format!(
            "expected a REQUIRES violation containing \"{text}\"\nit says: {r}"
        )),
        (Expect::Error(text), Ok(v)) => Err(format!(
            "expected a REQUIRES violation containing \"{text}\"\nbut the arguments are valid and give {v}"
        )),
    }
}

/// Does an implementation's value agree with the reference value? If not, where they part.
pub fn against_reference(
    spec: &TaskSpec,
    case: &TaskCase,
    reference: &Value,
    actual: Value,
) -> Result<(), String> {
    let ty = spec.task.result();
    let actual = match actual {
        Value::Raise(_) => actual,
        v => ty.conform(v.clone()).map_err(|why| {
            format!(
                "expected: {reference}\n  actual: {v}\nthe value is not a {}: {why}",
                ty.sml()
            )
        })?,
    };
    compare(reference, &actual, &ty, case.any_order)
        .map_err(|why| format!("expected: {reference}\n  actual: {actual}\n{why}"))
}
