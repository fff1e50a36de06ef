//! The `acies` command line.

mod unit_spec;

fn main() {
    println!("acies");
}
