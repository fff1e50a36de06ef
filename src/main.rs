fn main() {
    println!("acies");
}
