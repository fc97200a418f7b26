import FlybyFlight
import Foundation
import Testing

/// The batch-engine files in Tools/farm (issue 20): the Kubernetes Indexed Job and join Job, and
/// the Slurm array script, checked for the shard arithmetic they encode (no cluster here).
@Suite struct FarmEngineFilesTests {
    static let folder = Farm.root + "/Tools/farm"

    static func load(_ name: String) throws -> MiniYAML.Value {
        try MiniYAML.parse(String(contentsOfFile: folder + "/" + name, encoding: .utf8))
    }

    /// The words of a container's shell command (`args[0]` of `sh -c`).
    static func command(_ job: MiniYAML.Value) throws -> [String] {
        let container = try #require(job["spec"]?["template"]?["spec"]?["containers"]?[0])
        #expect(container["command"]?.strings == ["/bin/sh", "-c"])
        let line = try #require(container["args"]?.strings?.first)
        return line.split(separator: " ").map(String.init)
    }

    static func value(after option: String, in words: [String]) -> String? {
        words.firstIndex(of: option).flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
    }

    @Test func theIndexedJobGivesEachPodItsOwnShardAndTogetherEverySegmentOnce() throws {
        let job = try Self.load("k8s/render-job.yaml")
        #expect(job["kind"]?.scalar == "Job")
        #expect(job["spec"]?["completionMode"]?.scalar == "Indexed")
        let completions = try #require(job["spec"]?["completions"]?.scalar.flatMap { Int($0) })
        let parallelism = try #require(job["spec"]?["parallelism"]?.scalar.flatMap { Int($0) })
        #expect(parallelism >= 1 && parallelism <= completions)
        #expect(job["spec"]?["template"]?["spec"]?["restartPolicy"]?.scalar == "Never")

        let words = try Self.command(job)
        #expect(Array(words.prefix(3)) == ["exec", "flyby", "play"])
        let shard = try #require(Self.value(after: "--shard", in: words))
        #expect(shard == "${JOB_COMPLETION_INDEX}/\(completions)", "K must equal completions")
        let n = try #require(Self.value(after: "--segment-frames", in: words).flatMap { Int($0) })
        let out = try #require(Self.value(after: "--out", in: words))

        // The output folder is on the shared volume, whose claim is the one volume.yaml defines.
        let container = try #require(job["spec"]?["template"]?["spec"]?["containers"]?[0])
        let mount = try #require(container["volumeMounts"]?[0])
        let mountPath = try #require(mount["mountPath"]?.scalar)
        #expect(out.hasPrefix(mountPath + "/"))
        let volume = try #require(job["spec"]?["template"]?["spec"]?["volumes"]?[0])
        #expect(volume["name"]?.scalar == mount["name"]?.scalar)
        let claim = try Self.load("k8s/volume.yaml")
        #expect(claim["kind"]?.scalar == "PersistentVolumeClaim")
        #expect(volume["persistentVolumeClaim"]?["claimName"]?.scalar == claim["metadata"]?["name"]?.scalar)
        #expect(claim["spec"]?["accessModes"]?[0]?.scalar == "ReadWriteMany")

        // Indices 0…K−1, each substituted as the pod would, cover a one-hour 4K60 flight's
        // segments exactly once.
        let layout = try SegmentLayout(frameCount: 216_000, segmentFrames: n)
        var owner = [Int](repeating: -1, count: layout.count)
        for index in 0..<completions {
            let text = shard.replacingOccurrences(of: "${JOB_COMPLETION_INDEX}", with: String(index))
            for s in layout.segments(of: try Shard(parsing: text)) {
                #expect(owner[s] == -1, "segment \(s) taken twice")
                owner[s] = index
            }
        }
        #expect(!owner.contains(-1))
    }

    @Test func theJoinJobJoinsTheManifestTheRenderJobWrites() throws {
        let render = try Self.command(try Self.load("k8s/render-job.yaml"))
        let join = try Self.load("k8s/join-job.yaml")
        #expect(join["kind"]?.scalar == "Job")
        #expect(join["spec"]?["completions"]?.scalar == "1")
        let words = try Self.command(join)
        #expect(Array(words.prefix(3)) == ["exec", "flyby", "join"])
        let out = try #require(Self.value(after: "--out", in: render))
        #expect(words.count > 3 && words[3] == out + "/manifest.json")
        #expect(Self.value(after: "--out", in: words)?.hasSuffix(".mp4") == true)
    }

    @Test func theSlurmArrayTaskRendersTheShardOfItsTaskId() throws {
        let script = try String(contentsOfFile: Self.folder + "/render.sbatch", encoding: .utf8)
        #expect(script.contains("#SBATCH --array=0-"))
        #expect(script.contains(#"shard="${SLURM_ARRAY_TASK_ID"#))
        #expect(script.contains(#"shards="${SLURM_ARRAY_TASK_COUNT"#))
        #expect(script.contains(#"--shard "$shard/$shards""#))
        #expect(script.contains("--segment-frames"))
    }

    @Test func theMiniYAMLReaderReadsMappingsListsAndFlowSequences() throws {
        let v = try MiniYAML.parse("""
        # comment
        a: 1
        b:
          c: "two"   # trailing
          d:
            - name: x
              v: [1, "y z"]
            - plain
        e: 'q'
        """)
        #expect(v["a"]?.scalar == "1")
        #expect(v["b"]?["c"]?.scalar == "two")
        #expect(v["b"]?["d"]?[0]?["name"]?.scalar == "x")
        #expect(v["b"]?["d"]?[0]?["v"]?.strings == ["1", "y z"])
        #expect(v["b"]?["d"]?[1]?.scalar == "plain")
        #expect(v["e"]?.scalar == "q")
        #expect(throws: MiniYAML.Failure.self) { try MiniYAML.parse("a:\n\tb: 1") }
    }
}

/// Just enough YAML for the files in Tools/farm/k8s (block mappings and sequences, flow
/// sequences of scalars, quoted and plain scalars, comments); anything else is an error. YAML
/// 1.2.2 §8 (block collections) and §7.4 (flow sequences) are the parts this follows.
enum MiniYAML {
    indirect enum Value: Equatable {
        case scalar(String)
        case list([Value])
        case map([(String, Value)])

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.scalar(let x), .scalar(let y)): return x == y
            case (.list(let x), .list(let y)): return x == y
            case (.map(let x), .map(let y)): return x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
            default: return false
            }
        }

        subscript(key: String) -> Value? {
            if case .map(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
            return nil
        }

        subscript(index: Int) -> Value? {
            if case .list(let items) = self, index < items.count { return items[index] }
            return nil
        }

        var scalar: String? { if case .scalar(let s) = self { return s } else { return nil } }
        var strings: [String]? {
            if case .list(let items) = self { return items.compactMap(\.scalar) }
            return nil
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var line: Int, message: String
        var description: String { "line \(line): \(message)" }
    }

    /// (indent, text, line number) of every non-blank, non-comment line.
    static func parse(_ text: String) throws -> Value {
        var lines: [(Int, String, Int)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.contains("\t") { throw Failure(line: i + 1, message: "tabs are not YAML indentation") }
            let stripped = stripComment(String(raw))
            let trimmed = stripped.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed == "---" { continue }
            lines.append((stripped.prefix { $0 == " " }.count, trimmed, i + 1))
        }
        var at = 0
        let v = try block(&lines, &at, indent: lines.first?.0 ?? 0)
        if at < lines.count { throw Failure(line: lines[at].2, message: "unexpected indentation") }
        return v
    }

    static func block(_ lines: inout [(Int, String, Int)], _ at: inout Int, indent: Int) throws -> Value {
        guard at < lines.count else { return .scalar("") }
        if lines[at].1.hasPrefix("- ") || lines[at].1 == "-" {
            var items: [Value] = []
            while at < lines.count, lines[at].0 == indent, lines[at].1.hasPrefix("-") {
                let rest = String(lines[at].1.dropFirst()).trimmingCharacters(in: .whitespaces)
                // "- key: value" opens a mapping indented to where "key" starts.
                lines[at] = (indent + 2, rest, lines[at].2)
                if rest.isEmpty { at += 1; items.append(try block(&lines, &at, indent: lines[at].0)) } else if isPair(rest) {
                    items.append(try block(&lines, &at, indent: indent + 2))
                } else {
                    items.append(try scalar(rest, line: lines[at].2)); at += 1
                }
            }
            return .list(items)
        }
        var pairs: [(String, Value)] = []
        while at < lines.count, lines[at].0 == indent {
            let (_, text, n) = lines[at]
            guard let colon = pairColon(text) else { throw Failure(line: n, message: "expected 'key: value'") }
            let key = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
            let rest = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            at += 1
            if rest.isEmpty {
                if at < lines.count && (lines[at].0 > indent || (lines[at].0 == indent && lines[at].1.hasPrefix("- "))) {
                    pairs.append((key, try block(&lines, &at, indent: lines[at].0)))
                } else {
                    pairs.append((key, .scalar("")))
                }
            } else {
                pairs.append((key, try scalar(rest, line: n)))
            }
        }
        return .map(pairs)
    }

    static func isPair(_ s: String) -> Bool { pairColon(s) != nil }

    /// The colon of `key: value` (or `key:` at the end) outside quotes and brackets.
    static func pairColon(_ s: String) -> String.Index? {
        if s.hasPrefix("[") || s.hasPrefix("\"") || s.hasPrefix("'") { return nil }
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == ":" {
                let next = s.index(after: i)
                if next == s.endIndex || s[next] == " " { return i }
            }
            i = s.index(after: i)
        }
        return nil
    }

    static func scalar(_ s: String, line: Int) throws -> Value {
        if s.hasPrefix("[") {
            guard s.hasSuffix("]") else { throw Failure(line: line, message: "unclosed flow sequence") }
            var items: [Value] = []
            var current = "", quote: Character?
            for c in s.dropFirst().dropLast() {
                if let q = quote { if c == q { quote = nil } else { current.append(c) }; continue }
                if c == "\"" || c == "'" { quote = c; continue }
                if c == "," { items.append(.scalar(current.trimmingCharacters(in: .whitespaces))); current = ""; continue }
                current.append(c)
            }
            if quote != nil { throw Failure(line: line, message: "unclosed quote") }
            let last = current.trimmingCharacters(in: .whitespaces)
            if !last.isEmpty || !items.isEmpty { items.append(.scalar(last)) }
            return .list(items)
        }
        if (s.hasPrefix("\"") && s.hasSuffix("\"") || s.hasPrefix("'") && s.hasSuffix("'")) && s.count >= 2 {
            return .scalar(String(s.dropFirst().dropLast()))
        }
        if s.hasPrefix("{") || s.hasPrefix("&") || s.hasPrefix("*") || s.hasPrefix("|") || s.hasPrefix(">") {
            throw Failure(line: line, message: "unsupported YAML '\(s.prefix(10))'")
        }
        return .scalar(s)
    }

    /// Drops a `# comment` that is outside quotes.
    static func stripComment(_ s: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, c) in s.enumerated() {
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == "#" && previous == " " {
                return String(s.prefix(offset))
            }
            previous = c
        }
        return s
    }
}
