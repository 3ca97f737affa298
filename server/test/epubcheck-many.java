// Debian's EPUBCheck on many EPUBs in one Java process (server/test/epub-export.e2e-spec.ts): each file goes
// through EPUBCheck's own command line (EpubChecker.run, as `java -jar epubcheck.jar <file> --json <report>`
// does), only the JVM's start and EPUBCheck's schemas are paid once instead of once a file (11 files:
// 5 CPU-s instead of 38). Java runs this source file as it is (no build step):
//   java -cp /usr/share/java/epubcheck.jar server/test/epubcheck-many.java a.epub a.json b.epub b.json …
import com.adobe.epubcheck.tool.EpubChecker;

public class EpubCheckMany {
  public static void main(String[] args) {
    for (int i = 0; i + 1 < args.length; i += 2) {
      new EpubChecker().run(new String[] { args[i], "--json", args[i + 1] });
    }
  }
}
