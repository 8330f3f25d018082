package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class SharedJvmMainTest {

    static final Queue<String> STARTED = new ConcurrentLinkedQueue<>();

    public static final class First {
        public static void main(String[] args) {
            STARTED.add("first on " + Thread.currentThread().getName() + " with " + args.length + " arguments");
        }
    }

    public static final class Second {
        public static void main(String[] args) {
            STARTED.add("second on " + Thread.currentThread().getName());
        }
    }

    public static final class NoMain {
        public static void run() {}
    }

    @Test
    void eachMainRunsOnAThreadNamedAfterIt() throws InterruptedException {
        STARTED.clear();
        List<Thread> threads = SharedJvmMain.threads(List.of(First.class.getName(), Second.class.getName()));

        assertThat(threads).extracting(Thread::getName).containsExactly("SharedJvmMainTest$First-main", "SharedJvmMainTest$Second-main");
        assertThat(STARTED).as("nothing runs before the threads start").isEmpty();
        for (Thread t : threads) {
            t.start();
            t.join(10_000);
        }
        assertThat(STARTED).containsExactlyInAnyOrder("first on SharedJvmMainTest$First-main with 0 arguments",
                "second on SharedJvmMainTest$Second-main");
    }

    @Test
    void aClassThatIsNotThereOrHasNoMainStartsNothingAndIsNamed() {
        STARTED.clear();
        assertThatThrownBy(() -> SharedJvmMain.threads(List.of(First.class.getName(), "dev.pinfeed.NoSuchMain")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no class dev.pinfeed.NoSuchMain on the classpath");
        assertThatThrownBy(() -> SharedJvmMain.threads(List.of(NoMain.class.getName())))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(NoMain.class.getName() + " has no public static void main(String[])");
        assertThat(STARTED).isEmpty();
    }
}
