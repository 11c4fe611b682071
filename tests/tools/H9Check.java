/* H9Check: reads an h9 file with OpenGotha's own h9 importer
 * (info.vannier.gotha.ExternalDocument.importPlayersAndGamesFromPlainFile, OpenGotha 3.51)
 * and prints what it understood, one fact a line, for tests/unit/test_h9_opengotha.c:
 *   player <n> <surname>|<first name>|<rank, lower case>|<country>|<club>
 *   game <round> <black n> <white n> <handicap> <B+|W+|=|?>[!]   ("!": by default)
 *   absent <n> <round>                         (rounds 1..ROUNDS not played)
 * Players are numbered 1.. in the file's order. Games are sorted by round, then black.
 * Usage: java -cp opengotha.jar:jhall.jar:DIR H9Check FILE ROUNDS
 */
import info.vannier.gotha.ExternalDocument;
import info.vannier.gotha.Game;
import info.vannier.gotha.Player;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;

public class H9Check {
	public static void main(String[] args) {
		ArrayList<Player> players = new ArrayList<>();
		ArrayList<Game> games = new ArrayList<>();
		int rounds = Integer.parseInt(args[1]);
		ExternalDocument.importPlayersAndGamesFromPlainFile(new File(args[0]), "h9", players,
				games);
		for (int i = 0; i < players.size(); i++) {
			Player p = players.get(i);
			System.out.println("player " + (i + 1) + " " + p.getName() + "|" + p.getFirstName()
					+ "|" + Player.convertIntToKD(p.getRank()).trim().toLowerCase() + "|" + p.getCountry()
					+ "|" + p.getClub());
		}
		ArrayList<String> lines = new ArrayList<>();
		for (Game g : games) {
			int r = g.getResult();
			boolean byDef = r >= Game.RESULT_BYDEF;
			if (byDef)
				r -= Game.RESULT_BYDEF;
			String res = r == Game.RESULT_BLACKWINS ? "B+" : r == Game.RESULT_WHITEWINS ? "W+"
					: r == Game.RESULT_EQUAL ? "=" : "?";
			lines.add(String.format("game %02d %04d %04d %d %s%s", g.getRoundNumber() + 1,
					players.indexOf(g.getBlackPlayer()) + 1,
					players.indexOf(g.getWhitePlayer()) + 1, g.getHandicap(), res,
					byDef ? "!" : ""));
		}
		Collections.sort(lines);
		for (String l : lines)
			System.out.println(l.replaceAll(" 0+(\\d)", " $1"));
		for (int i = 0; i < players.size(); i++)
			for (int r = 0; r < rounds; r++)
				if (!players.get(i).getParticipating(r))
					System.out.println("absent " + (i + 1) + " " + (r + 1));
	}
}
