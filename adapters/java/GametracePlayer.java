import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;

/**
 * Drives a CS10 student's Kalah player for `gametrace grade --player-cmd` (probe protocol 1,
 * with `choose`). Compile it beside the student's KalahGame and player:
 *
 *   javac -d BUILD STUDENT/*.java adapters/java/GametracePlayer.java
 *   java -cp BUILD GametracePlayer ComputerKalahPlayerAB Computer 6
 *
 * The first argument names the player's class; the others are handed to its public
 * constructor of as many parameters (each an int or a String), in order. The game is
 * `new KalahGame(pits, seeds)` from GAMETRACE_PITS and GAMETRACE_SEEDS; a move is played with
 * legalMove and makeMove, and the player's move is `getMove(KalahGame)` (any further
 * parameters, such as a view, are given null). Only those are used, so a student's own
 * helpers and fields stay theirs.
 *
 * Requests (docs/src/probe-protocol.md): start, play N, choose, moves, player, status, show.
 * Every answer is one line `@gt <JSON>` on stdout; the student's own prints go elsewhere
 * (stderr), so they can never be taken for an answer. When the student's code throws, the
 * answer is {"raised": "..."} and the conversation goes on.
 */
public class GametracePlayer {
  static final PrintStream answers = System.out;
  static KalahGame game;
  static int pits;
  static int seeds;

  public static void main(String[] args) throws Exception {
    // The student's prints must not interleave with the answers.
    System.setOut(System.err);
    if (args.length < 1) {
      answers.println("@gt {\"error\": \"usage: GametracePlayer PLAYER_CLASS [ARGS...]\"}");
      return;
    }
    pits = Integer.parseInt(env("GAMETRACE_PITS", "6"));
    seeds = Integer.parseInt(env("GAMETRACE_SEEDS", "4"));
    Object player = construct(args);
    Method getMove = findGetMove(player.getClass());
    answers.println("@gt {\"protocol\": 1, \"driver\": \"java-cs10-player\"}");
    answers.flush();
    game = new KalahGame(pits, seeds);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      line = line.trim();
      if (line.equals("quit")) break;
      String answer;
      try {
        answer = answer(line, player, getMove);
      } catch (InvocationTargetException e) {
        answer = raised(e.getCause());
      } catch (RuntimeException | StackOverflowError e) {
        answer = raised(e);
      }
      answers.println("@gt " + answer);
      answers.flush();
    }
  }

  static String env(String name, String otherwise) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? otherwise : v;
  }

  static String answer(String line, Object player, Method getMove) throws Exception {
    if (line.equals("start")) {
      game = new KalahGame(pits, seeds);
      return "\"ok\"";
    }
    if (line.startsWith("start ")) return "{\"error\": \"only the game's own start\"}";
    if (line.startsWith("play ")) {
      int move;
      try {
        move = Integer.parseInt(line.substring(5).trim());
      } catch (NumberFormatException e) {
        return "{\"error\": \"no move named " + quote(line.substring(5)) + "\"}";
      }
      if (!game.legalMove(move)) return "{\"error\": \"no move named " + move + "\"}";
      game.makeMove(move);
      return "\"ok\"";
    }
    if (line.equals("choose")) {
      Object[] call = new Object[getMove.getParameterCount()];
      call[0] = new KalahGame(game);
      return String.valueOf(getMove.invoke(player, call));
    }
    if (line.equals("moves")) {
      StringBuilder s = new StringBuilder("[");
      for (int m = 0; m < pits; m++) {
        if (!game.legalMove(m)) continue;
        if (s.length() > 1) s.append(", ");
        s.append('"').append(m).append('"');
      }
      return s.append(']').toString();
    }
    if (line.equals("player")) return game.getPlayerToMove() == 0 ? "\"p1\"" : "\"p2\"";
    if (line.equals("status")) {
      if (!game.gameIsOver()) return "\"in_play\"";
      int diff = game.stonesDiff(0);
      if (diff == 0) return "\"draw\"";
      return diff > 0 ? "{\"winner\": \"p1\"}" : "{\"winner\": \"p2\"}";
    }
    if (line.equals("show")) return quote(game.toString());
    return "{\"error\": \"unknown request " + quote(line) + "\"}";
  }

  /** The player, by its public constructor taking as many arguments as were given. */
  static Object construct(String[] args) throws Exception {
    Class<?> c = Class.forName(args[0]);
    int n = args.length - 1;
    for (Constructor<?> k : c.getConstructors()) {
      Class<?>[] types = k.getParameterTypes();
      if (types.length != n) continue;
      Object[] values = new Object[n];
      boolean fits = true;
      for (int i = 0; i < n && fits; i++) {
        String a = args[i + 1];
        if (types[i] == int.class || types[i] == Integer.class) {
          try {
            values[i] = Integer.parseInt(a);
          } catch (NumberFormatException e) {
            fits = false;
          }
        } else if (types[i] == String.class) {
          values[i] = a;
        } else {
          fits = false;
        }
      }
      if (fits) return k.newInstance(values);
    }
    throw new IllegalArgumentException(
        c.getName() + " has no public constructor taking " + n + " ints and Strings");
  }

  /** The player's getMove(KalahGame, ...), in the class or a superclass. */
  static Method findGetMove(Class<?> c) {
    for (Method m : c.getMethods()) {
      Class<?>[] types = m.getParameterTypes();
      if (m.getName().equals("getMove") && types.length >= 1 && types[0] == KalahGame.class
          && (m.getReturnType() == int.class || m.getReturnType() == Integer.class)) {
        return m;
      }
    }
    throw new IllegalArgumentException(c.getName() + " has no public int getMove(KalahGame)");
  }

  static String raised(Throwable e) {
    StringBuilder s = new StringBuilder(e.toString());
    for (StackTraceElement at : e.getStackTrace()) {
      if (at.getClassName().equals("GametracePlayer")) break;
      if (at.getClassName().startsWith("java.") || at.getClassName().startsWith("jdk.")) continue;
      s.append(" at ").append(at.getClassName()).append('.').append(at.getMethodName())
          .append(" (").append(at.getFileName()).append(':').append(at.getLineNumber()).append(')');
      break;
    }
    return "{\"raised\": " + quote(s.toString()) + "}";
  }

  static String quote(String s) {
    StringBuilder q = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') q.append('\\').append(ch);
      else if (ch == '\n') q.append("\\n");
      else if (ch < 0x20) q.append(String.format("\\u%04x", (int) ch));
      else q.append(ch);
    }
    return q.append('"').toString();
  }
}
