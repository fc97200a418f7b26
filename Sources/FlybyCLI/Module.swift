#if canImport(Glibc)
import Glibc
#endif
public enum FlybyCommandLine {
    public static func main(arguments: [String]) -> Int32 { 0 }
}
