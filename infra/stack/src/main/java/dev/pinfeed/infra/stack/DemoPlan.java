package dev.pinfeed.infra.stack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The shape of the demo dataset, decided before anything is published: who exists, who follows
 * whom, who pins and likes what. Popularity follows a power law (Zipf over a user's rank, exponent
 * {@link #ZIPF}), as in real social graphs: a few authors are followed by most users, most by a
 * handful. Everything is derived from the seed, so every fresh stack gets the same graph and an
 * interrupted load resumes with the same requests. Indexes here; IDs come from ingest-api.
 */
final class DemoPlan {

    static final double ZIPF = 1.0;

    /** How big: the defaults make thousands of users, boards and pins, a few authors with thousands of followers. */
    record Size(int users, int meanFollows, int meanPinsPerBoard, int meanLikes) {
        static final Size DEFAULT = new Size(3000, 15, 2, 5);
    }

    record Board(int owner, String name) {}

    record Pin(int board, int author, int n) {}

    /** A follow of a user or (user = false) of a board. */
    record Follow(int follower, int target, boolean user) {}

    final Size size;
    final List<String> usernames = new ArrayList<>();
    final List<Board> boards = new ArrayList<>();
    final List<Pin> pins = new ArrayList<>();
    final List<Follow> follows = new ArrayList<>();
    /** Board unfollows (seed 004): a follower of a user drops one of that user's boards. */
    final List<Follow> boardUnfollows = new ArrayList<>();
    /** (user, pin index) likes. */
    final List<int[]> likes = new ArrayList<>();
    /** A user's comment on a pin (by index). */
    record Comment(int user, int pin, String text) {}
    final List<Comment> comments = new ArrayList<>();
    /** A user's repin of a pin (by index) onto one of his boards (by index). */
    record Repin(int user, int pin, int board) {}
    final List<Repin> repins = new ArrayList<>();
    final int[] followers;
    /** The demo's interests, by index (slugs: names are unique). */
    static final List<String> INTERESTS = List.of("woodworking", "ceramics", "street-art", "hiking", "coffee", "typography",
            "bicycles", "night-sky", "sourdough", "tiny-houses", "knitting", "houseplants", "mid-century-modern", "watercolor",
            "vintage-cars", "photography", "camping", "vegan-recipes", "interior-design", "origami");
    /** The interests (by index) each pin carries, 0 to 2, aligned with {@link #pins}. */
    final List<List<Integer>> pinInterests = new ArrayList<>();
    /** (user, interest index) follows: most users follow a few interests. */
    final List<int[]> interestFollows = new ArrayList<>();

    /**
     * Followers from which an author is a celebrity in the dev stack (fanout-streams' {@code fanout.celebrity-followers}):
     * the demo's few most followed authors are, so ./pinfeed dev shows pins pulled at read time beside pins fanned out.
     */
    static final int CELEBRITY_FOLLOWERS = 1000;
    /** The dev stack's {@code fanout.popular-interest-followers}: the demo's few most followed interests are popular. */
    static final int POPULAR_INTEREST_FOLLOWERS = 200;

    /** The username of the demo's user {@code u} (0 is the most followed). */
    static String username(int u) {
        return String.format(Locale.ROOT, "%s_%04d", FIRST_NAMES[u % FIRST_NAMES.length], u);
    }

    /** The first {@code n} demo usernames, the most followed first: the ones worth signing in as. */
    static List<String> firstUsernames(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(DemoPlan::username).toList();
    }

    /** {@code n} distinct demo usernames drawn uniformly from the default dataset's users (a load's random readers). */
    static List<String> randomUsernames(int n, long seed) {
        int users = Size.DEFAULT.users();
        if (n < 1 || n > users) throw new IllegalArgumentException("--demo-readers: between 1 and " + users + ": " + n);
        List<Integer> all = new ArrayList<>(java.util.stream.IntStream.range(0, users).boxed().toList());
        java.util.Collections.shuffle(all, new java.util.Random(seed));
        return all.subList(0, n).stream().map(DemoPlan::username).toList();
    }

    DemoPlan(Size size, long seed) {
        this.size = size;
        SplittableRandom random = new SplittableRandom(seed);
        Zipf byRank = new Zipf(size.users(), ZIPF);
        for (int u = 0; u < size.users(); u++) {
            usernames.add(username(u));
        }
        List<List<Integer>> boardsOf = new ArrayList<>();
        for (int u = 0; u < size.users(); u++) {
            List<Integer> own = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int b = 0; b < count; b++) {
                own.add(boards.size());
                boards.add(new Board(u, BOARD_NAMES[random.nextInt(BOARD_NAMES.length)]));
            }
            boardsOf.add(own);
        }
        // Popular authors pin more: a board's pin count grows with its owner's popularity (rank 0 is the most followed).
        for (int b = 0; b < boards.size(); b++) {
            int owner = boards.get(b).owner();
            int extra = owner < 20 ? 6 : owner < 200 ? 2 : 0;
            int count = geometric(random, size.meanPinsPerBoard()) + extra;
            for (int p = 0; p < count; p++) pins.add(new Pin(b, owner, random.nextInt(100_000)));
        }
        followers = new int[size.users()];
        for (int u = 0; u < size.users(); u++) {
            int want = Math.min(size.users() - 1, 1 + geometric(random, size.meanFollows()));
            Set<Integer> targets = new LinkedHashSet<>();
            for (int tries = 0; targets.size() < want && tries < want * 20; tries++) {
                int t = byRank.sample(random);
                if (t != u) targets.add(t);
            }
            for (int t : targets) {
                follows.add(new Follow(u, t, true));
                followers[t]++;
            }
            // A few board follows of authors he does not follow, and now and then an unfollow of one board of an author he does.
            Set<Integer> followedBoards = new LinkedHashSet<>();
            for (int k = random.nextInt(4); k > 0; k--) {
                int owner = byRank.sample(random);
                if (owner == u || targets.contains(owner)) continue;
                List<Integer> own = boardsOf.get(owner);
                int board = own.get(random.nextInt(own.size()));
                if (followedBoards.add(board)) follows.add(new Follow(u, board, false));
            }
            if (!targets.isEmpty() && random.nextInt(10) == 0) {
                int owner = targets.iterator().next();
                List<Integer> own = boardsOf.get(owner);
                if (own.size() > 1) boardUnfollows.add(new Follow(u, own.get(random.nextInt(own.size())), false));
            }
        }
        Zipf byPin = new Zipf(pins.size(), ZIPF);
        for (int u = 0; u < size.users(); u++) {
            Set<Integer> liked = new LinkedHashSet<>();
            for (int k = geometric(random, size.meanLikes()); k > 0; k--) liked.add(byPin.sample(random));
            for (int p : liked) likes.add(new int[] {u, p});
        }
        // Comments last, so the draws above (and the dataset they make) stay what they were.
        for (int u = 0; u < size.users(); u++) {
            for (int k = geometric(random, 1); k > 0; k--) {
                comments.add(new Comment(u, byPin.sample(random), COMMENTS[random.nextInt(COMMENTS.length)]));
            }
        }
        // Repins after them: about one user in five saves a popular pin of someone else to one of his boards.
        for (int u = 0; u < size.users(); u++) {
            if (random.nextInt(5) != 0) continue;
            int pin = byPin.sample(random);
            if (pins.get(pin).author() == u) continue;
            List<Integer> own = boardsOf.get(u);
            repins.add(new Repin(u, pin, own.get(random.nextInt(own.size()))));
        }
        // Interests from a generator of their own, so every draw above (and the dataset it makes) stays what it was.
        SplittableRandom tags = new SplittableRandom(seed ^ 0x1_4e7e_5750L);
        Zipf byInterest = new Zipf(INTERESTS.size(), ZIPF);
        for (int p = 0; p < pins.size(); p++) {
            Set<Integer> carried = new LinkedHashSet<>();
            for (int k = tags.nextInt(3); k > 0; k--) carried.add(byInterest.sample(tags));
            pinInterests.add(List.copyOf(carried));
        }
        for (int u = 0; u < size.users(); u++) {
            Set<Integer> followed = new LinkedHashSet<>();
            for (int k = tags.nextInt(4); k > 0; k--) followed.add(byInterest.sample(tags));
            for (int i : followed) interestFollows.add(new int[] {u, i});
        }
    }

    /** The interest most users follow, and how many. */
    int[] mostFollowedInterest() {
        int[] count = new int[INTERESTS.size()];
        for (int[] f : interestFollows) count[f[1]]++;
        int best = 0;
        for (int i = 1; i < count.length; i++) if (count[i] > count[best]) best = i;
        return new int[] {best, count[best]};
    }

    /** The user with the most followers. */
    int mostFollowed() {
        int best = 0;
        for (int u = 1; u < followers.length; u++) if (followers[u] > followers[best]) best = u;
        return best;
    }

    /** A user who follows at least {@code minFollows} users: a reader whose feed has plenty in it. */
    int busyReader(int minFollows) {
        int[] following = new int[size.users()];
        for (Follow f : follows) if (f.user()) following[f.follower()]++;
        for (int u = size.users() - 1; u >= 0; u--) if (following[u] >= minFollows) return u;
        return size.users() - 1;
    }

    /** 0, 1, 2, ... with the given mean (geometric): most small, a long tail. */
    private static int geometric(SplittableRandom random, int mean) {
        double p = 1.0 / (mean + 1);
        return (int) Math.floor(Math.log(1 - random.nextDouble()) / Math.log(1 - p));
    }

    /** Samples 0..n-1 with P(k) ∝ (k+1)^-s, by binary search over the cumulative weights. */
    static final class Zipf {
        private final double[] cumulative;

        Zipf(int n, double s) {
            cumulative = new double[n];
            double sum = 0;
            for (int k = 0; k < n; k++) {
                sum += Math.pow(k + 1, -s);
                cumulative[k] = sum;
            }
        }

        int sample(SplittableRandom random) {
            double x = random.nextDouble() * cumulative[cumulative.length - 1];
            int i = Arrays.binarySearch(cumulative, x);
            return i >= 0 ? i : Math.min(-i - 1, cumulative.length - 1);
        }
    }

    private static final String[] FIRST_NAMES = {"ada", "ben", "chloe", "dev", "emma", "felix", "grace", "hugo", "iris", "jonas",
            "kai", "lena", "milo", "nora", "oscar", "paula", "quinn", "rosa", "sami", "tara", "umar", "vera", "wim", "xena", "yuki", "zoe"};

    private static final String[] COMMENTS = {"Love this!", "Saving this for later.", "Where is this?", "So good.", "Trying it this weekend.",
            "Beautiful colours.", "Great idea, thanks for sharing.", "How long did it take?", "This made my day.", "Adding it to my board."};
    static final String[] BOARD_NAMES = {"Recipes", "Travel", "Home ideas", "Garden", "Woodworking", "Street art", "Hiking",
            "Coffee", "Typography", "Bicycles", "Ceramics", "Night sky", "Bread", "Tiny houses", "Bookshelves", "Knitting"};
}
