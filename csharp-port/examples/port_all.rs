//! Ports every `.cs` file of a folder into another and prints one line per file: `ok`
//! or the error. For measuring the translator on a corpus: `cargo run --release -p
//! csharp-port --example port_all -- IN_DIR OUT_DIR`.

use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (input, output) = (Path::new(&args[1]), Path::new(&args[2]));
    std::fs::create_dir_all(output).expect("the output folder");
    let mut entries: Vec<_> = std::fs::read_dir(input)
        .expect("the input folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
    {
        let bytes = std::fs::read(path).expect("a readable file");
        let source = String::from_utf8_lossy(&bytes);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let options = csharp_port::PortOptions {
            source_name: name.clone(),
        };
        match csharp_port::port(&source, &options) {
            Ok(port) => {
                let stem = path.file_stem().unwrap().to_string_lossy().to_lowercase();
                std::fs::write(output.join(format!("{stem}.rs")), port.rust).expect("write");
                println!("{name}\tok");
            }
            Err(err) => println!("{name}\terr\t{err}"),
        }
    }
}
