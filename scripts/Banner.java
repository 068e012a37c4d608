import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.CubicCurve2D;
import java.awt.image.BufferedImage;
import java.io.File;
import javax.imageio.ImageIO;

/**
 * Draws gfx/banner.png: threads woven on a loom, a few thick (platform), many fine (virtual).
 * Run: java scripts/Banner.java gfx/banner.png   (any JDK >= 11; deterministic output)
 */
public class Banner {
    public static void main(String[] args) throws Exception {
        int w = 1200, h = 300;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setPaint(new GradientPaint(0, 0, new Color(0x14, 0x1b, 0x2d), w, h, new Color(0x23, 0x2f, 0x4f)));
        g.fillRect(0, 0, w, h);
        // Warp: fine vertical threads, the virtual ones.
        g.setStroke(new BasicStroke(1f));
        for (int x = 10; x < w; x += 9) {
            g.setColor(new Color(0x6c, 0xc4, 0xe8, 70));
            g.drawLine(x, 0, x, h);
        }
        // Weft: a few heavy platform threads, woven over and under.
        Color[] colors = {new Color(0xf2, 0x8c, 0x28), new Color(0xe8, 0x4a, 0x5f), new Color(0xf7, 0xc5, 0x48), new Color(0x4c, 0xd1, 0x9a)};
        for (int i = 0; i < 4; i++) {
            g.setColor(colors[i]);
            g.setStroke(new BasicStroke(6f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            int y = 40 + i * 70;
            for (int x = -60; x < w; x += 120) {
                int dir = ((x / 120) + i) % 2 == 0 ? 1 : -1;
                g.draw(new CubicCurve2D.Float(x, y, x + 40, y + 18 * dir, x + 80, y - 18 * dir, x + 120, y));
            }
        }
        g.setColor(new Color(0x14, 0x1b, 0x2d, 200));
        g.fillRoundRect(270, 80, 660, 140, 30, 30);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 78));
        String title = "loomylin";
        int tw = g.getFontMetrics().stringWidth(title);
        g.drawString(title, (w - tw) / 2, 165);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 22));
        String sub = "Jetty on platform threads vs virtual threads, measured";
        int sw = g.getFontMetrics().stringWidth(sub);
        g.setColor(new Color(0xc8, 0xd6, 0xf0));
        g.drawString(sub, (w - sw) / 2, 200);
        g.dispose();
        ImageIO.write(img, "png", new File(args.length > 0 ? args[0] : "gfx/banner.png"));
    }
}
