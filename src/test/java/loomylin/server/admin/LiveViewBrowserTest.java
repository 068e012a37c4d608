package loomylin.server.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The live view in a real browser: chromium from the PATH, headless, driven through the chromedriver on the PATH
 * (Selenium Manager bypassed). It loads the page, starts a race on /wait-blocking?ms=100 with 20 clients per
 * port, and asserts from the page itself: every chart has data points, loom's in-flight figure exceeds
 * qtp:4's during the race, a second start shows the 409's line, the summary appears at the end, and no
 * JavaScript error is logged. It saves a screenshot taken during the race to target/live-view.png, or to the
 * path in {@code -Dloomylin.screenshot} (the README's is gfx/live-view.png).
 */
@IntegrationTest
class LiveViewBrowserTest {
    List<Javalin> servers = new ArrayList<>();
    AdminServer admin;
    WebDriver browser;
    Path profile;

    @BeforeEach
    void start() throws Exception {
        Path chromium = Tools.assumeOnPath("chromium", "apt-get install chromium chromium-driver");
        Path chromedriver = Tools.assumeOnPath("chromedriver", "apt-get install chromium-driver");
        AdminOptions options = AdminOptions.loopback();
        for (String pool : List.of("qtp:4", "qtp:32", "loom")) {
            Javalin app = Twin.JAVA.start(Twin.options(pool));
            servers.add(app);
            options = options.withServer(new Watched(app.port(), pool, app.jettyServer().server()));
        }
        admin = AdminServer.start(options);

        System.setProperty("webdriver.chrome.driver", chromedriver.toString()); // no Selenium Manager download
        profile = Files.createTempDirectory("loomylin-chromium-");
        ChromeOptions chrome = new ChromeOptions();
        chrome.setBinary(chromium.toFile());
        chrome.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1400,1250");
        chrome.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        browser = new ChromeDriver(chrome);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) browser.quit();
        if (admin != null) admin.close();
        Stops.stopAll(servers);
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void aRaceShowsLoomHoldingMoreRequestsThanQtp4() throws Exception {
        browser.get("http://127.0.0.1:" + admin.port() + "/");
        await().atMost(Duration.ofSeconds(15)).until(() -> browser.findElements(By.cssSelector("section.port")).size() == 3);
        WebElement qtp4 = browser.findElement(By.cssSelector("section.port[data-pool='qtp:4']"));
        WebElement loom = browser.findElement(By.cssSelector("section.port[data-pool='loom']"));

        assertEquals("/wait-blocking", browser.findElement(By.name("route")).getDomProperty("value"), "the page's default endpoint");
        fill("value", "100");
        fill("concurrency", "20");
        fill("seconds", "8");
        browser.findElement(By.id("start")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> text(By.id("race-message")).equals("Race started."));

        await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100))
                .until(() -> number(loom, ".inflight") > number(qtp4, ".inflight") && number(loom, ".inflight") >= 10);
        assertTrue(number(qtp4, ".inflight") <= 2, "qtp:4 has two request threads");
        assertTrue(text(qtp4, ".says").contains("request threads serve requests"), text(qtp4, ".says"));
        assertTrue(text(loom, ".says").contains("each on its own virtual thread"), text(loom, ".says"));

        browser.findElement(By.id("start")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> text(By.id("race-message")).startsWith("a race is already running"));

        await().atMost(Duration.ofSeconds(10)).until(() -> chartPoints().stream().allMatch(n -> n > 10));
        screenshot();

        await().atMost(Duration.ofSeconds(40)).until(() -> browser.findElements(By.cssSelector("#race-summary tbody tr")).size() == 3);
        @SuppressWarnings("unchecked")
        List<List<String>> rows = (List<List<String>>) ((JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll('#race-summary tbody tr')].map(r => [...r.cells].map(c => c.textContent))");
        for (List<String> cells : rows) {
            assertEquals(7, cells.size(), "port, pool, requests, req/s, p50, p99, errors: " + cells);
            assertTrue(Long.parseLong(cells.get(2)) > 0, "requests: " + cells);
            assertEquals("0", cells.get(6), "no errors: " + cells);
        }
        assertEquals(List.of("qtp:4", "qtp:32", "loom"), rows.stream().map(r -> r.get(1)).toList());
        assertEquals(6, chartPoints().size(), "two charts per port");
        assertTrue(chartPoints().stream().allMatch(n -> n > 0), "every chart has data points: " + chartPoints());

        assertEquals(List.of(), ((JavascriptExecutor) browser).executeScript("return window.liveErrors"), "JavaScript errors");
        List<String> severe = new ArrayList<>();
        for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
            // the 409 of the second start is a network answer the page shows, not a script error
            if (e.getLevel().intValue() >= Level.SEVERE.intValue() && !e.getMessage().contains("/race - Failed to load resource: the server responded with a status of 409"))
                severe.add(e.getMessage());
        }
        assertEquals(List.of(), severe, "browser console errors");
    }

    private void fill(String name, String value) {
        WebElement input = browser.findElement(By.name(name));
        input.clear();
        input.sendKeys(value);
    }

    private String text(By by) {
        return browser.findElement(by).getText().trim();
    }

    private static String text(WebElement card, String css) {
        return card.findElement(By.cssSelector(css)).getText().trim();
    }

    private static int number(WebElement card, String css) {
        return Integer.parseInt(text(card, css));
    }

    @SuppressWarnings("unchecked")
    private List<Long> chartPoints() {
        return (List<Long>) ((JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll('canvas')].map(c => Chart.getChart(c).data.datasets[0].data.length)");
    }

    private void screenshot() throws Exception {
        Path target = Path.of(System.getProperty("loomylin.screenshot", "target/live-view.png"));
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
    }
}
