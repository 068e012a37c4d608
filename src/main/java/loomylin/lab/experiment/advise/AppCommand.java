package loomylin.lab.experiment.advise;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * {@code advise --app}'s command, split as a shell splits it but without a shell: words separated by blanks,
 * {@code '...'} taken literally, {@code "..."} with {@code \"} and {@code \\} inside, a backslash outside quotes
 * escaping the next character. No variables, globs, pipes or redirections: the words run as they are, so that the
 * process started is the JVM measured. The first word must be {@code java} or a path to a java, since the agent
 * goes right after it ({@link #underAgent}).
 *
 * @param words the command's words, the java first
 */
public record AppCommand(List<String> words) {
    public AppCommand {
        words = List.copyOf(words);
    }

    /** Reads {@code --app}'s text; every mistake one line ({@link UsageError}). */
    public static AppCommand parse(String text) {
        if (text == null || text.isBlank()) throw new UsageError("--app needs the command that starts your application, e.g. --app 'java -jar your-app.jar'");
        List<String> words = split(text);
        String java = words.getFirst();
        String name = Path.of(java).getFileName() == null ? "" : Path.of(java).getFileName().toString();
        if (!name.equals("java"))
            throw new UsageError("--app must start with java or a path to a java (the agent goes right after it), got '" + Params.printable(java) + "'");
        if (java.contains("/") && !Files.isExecutable(Path.of(java)))
            throw new UsageError("--app's java '" + Params.printable(java) + "' is not an executable file");
        for (String w : words)
            if (w.startsWith("-javaagent:") && w.contains("loomylin"))
                throw new UsageError("--app already runs Loomylin's agent ('" + Params.printable(w) + "'): give the command without it, advise --app adds it per pool");
        if (words.size() < 2) throw new UsageError("--app '" + Params.printable(text) + "' starts a java with nothing to run: give its -jar or main class");
        return new AppCommand(words);
    }

    /** The command's words as a shell would split them (see the class comment); an unclosed quote is a usage error. */
    public static List<String> split(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                int end = text.indexOf('\'', i + 1);
                if (end < 0) throw new UsageError("--app has an unclosed ' quote");
                word.append(text, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                int j = i + 1;
                for (; j < text.length() && text.charAt(j) != '"'; j++) {
                    char d = text.charAt(j);
                    if (d == '\\' && j + 1 < text.length() && (text.charAt(j + 1) == '"' || text.charAt(j + 1) == '\\')) d = text.charAt(++j);
                    word.append(d);
                }
                if (j >= text.length()) throw new UsageError("--app has an unclosed \" quote");
                i = j;
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= text.length()) throw new UsageError("--app ends with a lone backslash");
                word.append(text.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) words.add(word.toString());
        if (words.isEmpty()) throw new UsageError("--app needs the command that starts your application, e.g. --app 'java -jar your-app.jar'");
        return List.copyOf(words);
    }

    /** The command with {@code -javaagent:AGENT=pool=POOL,admin=PORT} right after the java, so that it comes before the application's own arguments. */
    public List<String> underAgent(Path agentJar, String pool, int adminPort) {
        List<String> out = new ArrayList<>();
        out.add(words.getFirst());
        out.add("-javaagent:" + agentJar + "=pool=" + pool + ",admin=" + adminPort);
        out.addAll(words.subList(1, words.size()));
        return out;
    }

    /** The command as one line, for the page and the CSV: words with a blank or a quote in them in single quotes. */
    public String text() {
        return String.join(" ", words.stream().map(w -> w.isEmpty() || w.matches(".*[\\s'\"\\\\].*") ? "'" + w.replace("'", "'\\''") + "'" : w).toList());
    }
}
