package io.github.raftns.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * FrameIndex reads the index.tsv that framecap writes beside the frames it captured, one line per
 * frame, and finds requests and the responses that answer them.
 */
final class FrameIndex {
    /** Frame is one index line. */
    record Frame(Path file, int conn, long seq, String dir, String kind, int reqCode, int respCode, int opaque,
                 int flag, int serialize, int version, int length) {
        boolean request(int code) {
            return dir.equals("out") && kind.equals("req") && reqCode == code;
        }

        boolean oneway(int code) {
            return dir.equals("out") && kind.equals("oneway") && reqCode == code;
        }

        /** mentions reports whether the frame's bytes contain text (for example a topic in the header). */
        boolean mentions(String text) throws IOException {
            return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
        }
    }

    private final Path dir;

    FrameIndex(Path dir) {
        this.dir = dir;
    }

    /** frames returns every frame captured so far, in capture order. */
    List<Frame> frames() throws IOException {
        Path index = dir.resolve("index.tsv");
        List<Frame> out = new ArrayList<>();
        if (!Files.exists(index)) {
            return out;
        }
        for (String line : Files.readAllLines(index)) {
            String[] f = line.split("\t");
            if (f.length != 12) {
                continue;
            }
            out.add(new Frame(dir.resolve(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3], f[4],
                Integer.parseInt(f[5]), Integer.parseInt(f[6]), Integer.parseInt(f[7]), Integer.parseInt(f[8]),
                Integer.parseInt(f[9]), Integer.parseInt(f[10]), Integer.parseInt(f[11])));
        }
        out.sort(Comparator.comparingLong(Frame::seq));
        return out;
    }

    /** first returns the first frame matching p. */
    Optional<Frame> first(Predicate<Frame> p) throws IOException {
        return frames().stream().filter(p).findFirst();
    }

    /** smallest returns the shortest frame matching p. */
    Optional<Frame> smallest(Predicate<Frame> p) throws IOException {
        return frames().stream().filter(p).min(Comparator.comparingInt(Frame::length));
    }

    /** responseTo returns the response on the same connection with the request's opaque. */
    Optional<Frame> responseTo(Frame req) throws IOException {
        return frames().stream().filter(f -> f.conn == req.conn && f.dir.equals("in") && f.kind.equals("resp")
            && f.opaque == req.opaque).findFirst();
    }
}
