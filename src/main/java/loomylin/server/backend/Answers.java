package loomylin.server.backend;

import java.util.List;

/** The backend's JSON answers, one record each: what authenticate, authorize and meetings return. */
final class Answers {
    private Answers() {
    }

    /** authenticate: the user the token belongs to. */
    record User(String userId) {
    }

    /** authorize: what the user may do. */
    record Authority(String authority, String userId) {
    }

    /** meetings: the user's meetings. */
    record Meetings(List<Meeting> meetings, String userId) {
    }

    record Meeting(int id, String start, String title) {
    }
}
