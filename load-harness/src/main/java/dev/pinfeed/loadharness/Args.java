package dev.pinfeed.loadharness;

/** The harnesses' {@code --name value} options without a parser (the graph and feed-worker harnesses). */
final class Args {

    private Args() {}

    static int intArg(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) if (args[i].equals(name)) return Integer.parseInt(args[i + 1]);
        return fallback;
    }

    static String stringArg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) if (args[i].equals(name)) return args[i + 1];
        return fallback;
    }
}
