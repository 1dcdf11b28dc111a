# pawnpost's messages in English. Keys are shared with fr.ftl; a test checks both files have the same keys.

## Results
result-checkmate = { $winner } wins by checkmate.
result-stalemate = Draw by stalemate.
result-dead_position = Draw: neither side can checkmate any more (dead position).
result-fivefold = Draw by fivefold repetition.
result-seventy_five_moves = Draw by the 75-move rule.
result-threefold = Draw by threefold repetition, on { POSSESSIVE($player) } claim.
result-fifty_moves = Draw by the fifty-move rule, on { POSSESSIVE($player) } claim.
result-agreement = Draw by agreement.
result-resignation-win = { $loser } resigns; { $winner } wins.
result-resignation-draw = { $loser } resigns, but { $winner } could not checkmate: draw.
result-timeout-win = { $loser } ran out of time; { $winner } wins.
result-timeout-draw = { $loser } ran out of time, but { $winner } could not checkmate: draw.
result-abort = Game aborted: no result.
result-no_show = { $loser } never made a first move: { $winner } wins by forfeit (+/-, not rated).
result-adjudication = Adjudicated by a moderator: { $result }.
result-recorded = Result as recorded where the game was played: { $result }.
game-over = Game #{ $game } is over: { $result }

## Play
move-played = { $player } played { $san } in game #{ $game }.
your-move = { $player }, your move.
draw-offered = { $player } offers a draw. { $opponent }: /draw accept or /draw decline.
draw-declined = { $player } declines the draw.
draw-offer-lapsed = The draw offer lapsed with the move.
claim-refused = { POSSESSIVE($player) } draw claim is not correct; play goes on and it stands as a draw offer.
claim-with-move = { $player } claimed with the move { $san }, which is written but not played.

## Challenges
challenge-open = { $player } offers a game (challenge C{ $challenge }) to anyone here: /accept C{ $challenge }.
challenge-direct = { $player } challenges { $opponent } (challenge C{ $challenge }): /accept or /decline.
challenge-rematch = { $player } offers { $opponent } a rematch of game #{ $game }, colours swapped (challenge C{ $challenge }): /accept or /decline.
rematch-no-game = You have no finished game here to play again. Name it: /rematch <game>.
rematch-not-over = That game is still running: a rematch comes after it ends.
rematch-not-two-players = Only a game between two players can be played again (not a team's or a team match's).
challenge-continued = { $player } challenges { $opponent } (challenge C{ $challenge }) to continue a game begun elsewhere, from move { $move } with { $side ->
    [white] White
   *[black] Black
} to play (unrated): /accept or /decline.
game-continued = Game #{ $game } goes on from move { $move }: { $white } (White) against { $black } (Black). { $turn }, your move.
challenge-continued-open = A game begun elsewhere is continued with its opponent: name them (/challenge @player pgn:"...").
challenge-continued-fen = Give either the position (fen: or start:) or the game so far (pgn:), not both.
challenge-continued-rated = A game begun elsewhere is never rated: leave rated: out.
challenge-continued-color = Which side did you have in that game? Add color:white or color:black.
pgn-too_long = That PGN is too long.
pgn-syntax = That PGN cannot be read.
pgn-no_game = That text holds no game: give its moves in PGN, e.g. pgn:"1. e4 e5 2. Nf3".
pgn-unsupported_variant = Only standard chess and Chess960 can be continued, not { $variant }.
pgn-bad_fen = The FEN of that game cannot be used.
pgn-setup = That game cannot be set up.
pgn-illegal_move = { $move } is not a legal move in that game.
pgn-moves_after_end = That game goes on after its end (move { $move }).
pgn-result_mismatch = That game's result does not follow from its moves.
pgn-result_conflict = That game gives two different results.
pgn-already_over = That game is over ({ $result }): there is nothing to continue.
game-started = Game #{ $game } begins: { $white } (White) against { $black } (Black). { $turn }, your move.
challenge-declined = { $player } declines challenge C{ $challenge }.
challenge-cancelled = Challenge C{ $challenge } is cancelled.
no-challenge = There is no open challenge for you here.
challenge-own = You cannot accept your own challenge.
challenge-not-for-you = Challenge C{ $challenge } is for someone else.
challenge-self = You cannot challenge yourself.
challenge-limit = You already have { $limit ->
    [one] { $limit } open challenge
   *[other] { $limit } open challenges
}, the most allowed: cancel one with /cancel or wait for an answer.
setup-bad_fen = That is not a FEN.
setup-fen_too_long = That FEN is too long.
setup-illegal_position = That FEN is not a legal chess position.
setup-already_over = That position is already checkmate or stalemate.
setup-dead_position = Neither side could ever checkmate from that position (a dead position): the game would be drawn before its first move.
setup-counter_too_large = That FEN's move counters are too large: the halfmove clock and the move number are at most 4294967295.

## Finding the game
no-game = You have no game running here.
game-not-found = There is no game #{ $game } on this server.
act-told-in-game-channel = Done. Game #{ $game } is played in { $channel }: it is announced there.
which-game = You have several games here; add game:<id> to your command:
which-game-line = #{ $game } against { $opponent }
game-line = #{ $game } { $white } – { $black }: { $state }
game-line-to-move = { $player } to move
games-none = You have no games running on this server.
games-header = Your games:

## Information
board = Game #{ $game }: { $white } – { $black }, { $turn } to move.
board-over = Game #{ $game }: { $white } – { $black }, over ({ $score }): { $result }
board-opening = Opening: { $eco } { $name }
variant-chess960 = Chess960 #{ $number }
variant-chess960-position = Chess960, from a set position
challenge-start_and_fen = Give a start number or a FEN, not both.
moves-none = No moves yet.
standings-header = Standings (win 1, draw ½, loss 0):
standings-line = { $rank }. { $player }: { $points } { $half ->
        [2] point
       *[other] points
    } ({ $played } played: +{ $won } ={ $drawn } -{ $lost })
standings-teams-header = Teams, in vote games:
standings-none = No finished games yet.
console-help =
    In the console, each line is `name: /command` (`alice: /move e4`); lines that start with `:` steer the console:
    :channel NAME, :server NAME: where the next acts happen · :lang NAME fr: NAME's client speaks French · :moderator NAME: NAME moderates
    :advance 3d (or 5h, 30m), :now 2026-01-01T12:00:00Z: move the simulated clock (with --now) · # starts a comment · Ctrl-D quits
language-set = Language set to English.
language-reset = Language set back to the server's.
server-language-set = This server's language is now { $language }: public messages, and notices to players who chose no language of their own.
server-language-default = This server's language is back to the bot's default, { $language }.
notation-set-en = Your moves are now read in English notation (K Q R B N): R is the rook, and I no longer ask about letters it has.
notation-set-fr = Your moves are now read in French notation (R D T F C): R is the king, and I no longer ask about letters it has.
notation-set-de = Your moves are now read in German notation (K D T L S): I no longer ask about letters it has.
notation-auto = Your moves are read in every notation again: when a text could mean two moves, I ask.
notation-letter-settled = Noted: from now on “{ $letter }” is { $piece } for you, and I will not ask about it again (/settings notation changes this).
notation-ask-once = Your choice also tells me what this letter means for you; or say your notation once: /settings notation english, french or german.
piece-king = the king
piece-queen = the queen
piece-rook = the rook
piece-bishop = the bishop
piece-knight = the knight
piece-pawn = a pawn
help-header = Commands (your language's names work too; /help <command> tells one command's options):
help-line = { $about }: { $calls }
help-notes =
    Time controls (challenge time:…): 3d, 30d+1d, 30d+1d max 45d, 10/50d, 5d delay 1d, none.
    Moves: Nf3, e4, O-O, e8=Q, g1f3, Ng1-f3, and French letters (Cf3, Dd1, e8=D).
help-unknown = I know no command “{ $command }”. Type /help for the list.

## Refusals from the rules
refused-not_a_player = You are not playing in this game.
refused-not_a_moderator = Only a moderator can do that.
refused-not_the_clock = Only the clock can do that.
refused-game_over = This game is already over.
refused-not_your_turn = It is not your turn.
refused-no_draw_offer = There is no draw offer to answer.
refused-already_offered = You have already offered a draw.
refused-agreement_forbidden = Draws by agreement are not allowed on this server.
refused-agreement_too_early = A draw can be agreed only after each side has made { $moves ->
    [one] { $moves } move
   *[other] { $moves } moves
}.
refused-too_late_to_abort = Too late to abort: both sides have moved. You can resign or offer a draw.
refused-adjudication_needs_result = An adjudication needs a result: 1-0, 0-1 or 1/2-1/2.
refused-note_too_long = That note is too long.

## Refusals of a move
move-too_long = That move is too long to be a move.
move-syntax = “{ $input }” is not a move. Try Nf3, e4, O-O or g1f3.
move-ambiguous = “{ $input }” could mean several moves: { $candidates }. Nothing was played: choose the one you mean.
move-illegal-no_such_piece = “{ $input }”: you have no such piece.
move-illegal-cannot_reach = “{ $input }”: no piece of yours can move there.
move-illegal-path_blocked = “{ $input }”: the way is blocked.
move-illegal-king_in_check = “{ $input }”: that would leave your king in check.
move-illegal-castling_rights_lost = “{ $input }”: you can no longer castle on that side.
move-illegal-castling_not_now = “{ $input }”: you cannot castle now (check, an attacked square or a piece in the way).
move-illegal-own_piece_on_target = “{ $input }”: one of your own pieces is on that square.
move-illegal-bad_promotion = “{ $input }”: a pawn reaching the last rank must promote (e8=Q), and only then.
move-hints = Legal moves of that piece: { $moves }.

## Refusals of a command
command-too_long = That command is too long.
command-empty = Type a command, for example /help.
command-unknown_command = { $suggestion ->
    [none] Unknown command. Type /help for the list.
   *[other] Unknown command: did you mean /{ $suggestion }? Type /help for the list.
}
command-missing_argument = { $what ->
    [move] Which move? For example: /move e4 (or /move Nf3, /move O-O).
    [text] What to note? For example: /note Planning f4 after castling.
    [moves] Which line? For example: /if e5 Nf3 Nc6 Bb5 (if they play e5, you reply Nf3; then if Nc6, Bb5), or /if list, /if clear.
    [user] Whom? Name a player: @name.
    [player] Whom? Name a player: @name.
    [days] How many days? For example: /moretime 2 or /leave start 7.
    [language] Which language? /settings language en, fr or default.
    [subcommand] Which subcommand? /help <command> lists them, for example /help tournament.
    [system] Which kind of tournament? round_robin, double, swiss, knockout or scheveningen.
    [team] Which team? For example: /team join Rooks.
    [opponent] Against whom? A player (@name) or a team (vs:<team>).
   *[other] Something is missing: { $option }. Type /help for the list.
}
command-bad_value = { $what ->
    [subcommand] “{ $value }” is not one of this command's subcommands. /help lists them.
   *[other] “{ $value }” is not a valid { $option }.
}
command-unexpected_argument = I did not understand “{ $value }”.
command-not_a_mention = I did not understand “{ $value }”: to name a player, write @{ $value }.
command-unclosed_quote = A quote is not closed.
command-unknown_tiebreak = “{ $value }” is not a tie-break I know. Give FIDE's acronyms in order, separated by commas, from: { $valid } (for example tiebreaks:bh-c1,bh,sb).
command-repeated_tiebreak = { $value } is listed twice: give each tie-break once, in order, from: { $valid }.
command-hidden_character = Refused: there is an invisible or direction-changing character ({ $code }) in the { $option } you typed; it would make the bot show something else than what you see. Type it again without that character.

## Trouble on our side
internal-error = Something went wrong on my side and nothing was changed. Please try again.
stored-data-damaged = Refused: my stored data for this is damaged, so I changed nothing. The bot's operator must check the database (`pawnpost check`) and restore it from a backup.
database-busy = My database is busy right now, so nothing was changed. Please try again in a moment.
database-disk-full = Refused: my database's disk is full, so I changed nothing. The bot's operator must free some space.
database-read-only = Refused: my database is read-only right now, so I changed nothing. The bot's operator must make it writable again.
database-unavailable = I cannot reach my database right now, so nothing was changed. Please try again later.

## Clocks
more-time-given = { $player } gives { $opponent } { $days ->
    [one] { $days } more day
   *[other] { $days } more days
}.
clock-line = Clocks: { $white } { $white_left }, { $black } { $black_left }.
clock-flag = { POSSESSIVE($player) } flag falls at { $deadline } UTC.
clock-none = No clock.
duration-days = { $d }d { $h }h
duration-hours = { $h }h { $m }m
duration-minutes = { $m }m
refused-not_flagged = No flag has fallen.
refused-more_time_out_of_range = More time is 1 to 30 days.
refused-no_clock = This game has no clock.
outage-credited = The bot was down for { $duration }: in game #{ $game }, { POSSESSIVE($player) } clock got that time back.
reminder = { $player }, it is your move in game #{ $game }: { $left } left.
notify-channel = Turn notices and reminders will mention you in the game's channel.
notify-direct = Turn notices and reminders will come as direct messages.
notify-off = No more reminders; moves are still announced in the channel.

## Leave
leave-started = You are on leave until { $until }: your clocks are stopped. { $left } { $left ->
        [one] day
       *[other] days
    } of leave left this year.
leave-ended = Welcome back: your clocks run again. { $left } { $left ->
        [one] day
       *[other] days
    } of leave left this year.
leave-status-on = You are on leave until { $until }. { $left } { $left ->
        [one] day
       *[other] days
    } of leave left this year.
leave-status-off = You are not on leave. { $left } { $left ->
        [one] day
       *[other] days
    } of leave left this year.
leave-none = You are not on leave.
leave-already = You are already on leave; /leave end ends it.
leave-too-long = You have only { $left } { $left ->
        [one] day
       *[other] days
    } of leave left this year.
leave-notice = { $player } is on leave until { $until }: their clock in game #{ $game } is stopped.
leave-back = { $player } is back from leave: their clock in game #{ $game } runs again.
server-back = pawnpost is back in this server: the clock of game #{ $game } runs again ({ $player } to move).
channel-gone = The channel of game #{ $game } was deleted: its notices now come to you here. Go on in any channel of the server, naming the game: /move game:{ $game }.

## Discord
cmd-move = Play a move in your game
cmd-challenge = Challenge a player (or anyone here) to a game
cmd-accept = Accept a challenge
cmd-decline = Decline a challenge
cmd-cancel = Withdraw your challenge
cmd-rematch = After a finished game: the same game again, colours swapped
cmd-draw = Offer, accept or decline a draw
cmd-claim = Claim a draw by threefold repetition or the fifty-move rule
cmd-resign = Resign the game
cmd-abort = Abort the game (before both sides have moved)
cmd-board = Show the board
cmd-moves = Show the moves played
cmd-pgn = Get the game as a PGN file
cmd-games = List your running games
cmd-standings = Show this server's standings
cmd-leave = Take leave: your clocks stop in all your games here
cmd-moretime = Give your opponent more days
cmd-settings = Your language and notation, where turn notices reach you, your leave
cmd-help = How to play with the bot
cmd-status = For moderators: notices the bot could not deliver here
cmd-gif = Get the whole game as an animated GIF
cmd-rating = Show a player's rating and its history
cmd-record = Show one player's results against another
cmd-note = A private note on a game (only you see it)
opt-text = What to note
cmd-openings = This server's most played openings and how they scored
cmd-review = An engine review of a finished game: accuracy, mistakes, evaluation graph
cmd-team = This server's teams, who play vote chess and team matches
cmd-vote = Your vote on your team's move, seen only by you until the move is played
cmd-match = Matches between two teams, here or on another server: create, accept, join, start, withdraw, show
opt-match = The match's number (this server's latest by default)
opt-against = The team your team plays
opt-server = The other team's server id, if it is not this one
opt-boards = The most boards, two games each (4 by default)
opt-team = The team's name
opt-change_vote = Whether a member may change their vote before the move (default: yes)
cmd-puzzle = This server's puzzles, from its own games: the next one, an answer, the solvers
cmd-takeback = Casual games: ask to take back your last move, or answer the request
cmd-if = Conditional moves: if they play this, reply that (only you see them)
opt-moves = Their move, your reply, and so on, e.g. e5 Nf3 Nc6 Bb5
opt-move = The move, e.g. e4, Nf3, O-O, e8=Q
opt-offer_draw = Offer a draw with this move
opt-game = The game number (needed only if you have several here)
opt-challenge = The challenge number (6 for challenge C6)
opt-user = The player to challenge (nobody: anyone here may accept)
opt-color = The colour you want
opt-time = Time control, e.g. 3d, 30d+1d, 10/50d, none
opt-rated = Count the game in the standings
opt-fen = Start from this position (FEN)
opt-pgn = Continue a game begun elsewhere (its PGN or moves so far)
opt-variant = The rules: standard chess or Chess960 (a random start)
opt-start = A Chess960 start by its number, 0 to 959 (518 is the standard position)
opt-kind = What you claim
opt-days = Number of days
opt-language = The language of replies and notation
opt-pages = Whether the server's pages are on the web
choice-on = On the web
choice-hidden = Off the web (game links still work)
opt-notify = Where turn notices and reminders reach you
opt-notation = The notation you write moves in
opt-season = A season from the server's configuration (none: all games)
opt-player = The player
opt-opponent = Their opponent (nobody: you)
choice-white = White
choice-black = Black
choice-random = Random
choice-standard = Standard chess
choice-chess960 = Chess960
choice-threefold = Threefold repetition
choice-fifty = Fifty-move rule
choice-en = English
choice-fr = French
choice-default = The server's language
choice-english = English
choice-french = French
choice-german = German
choice-auto = Every notation (asks when a text could mean two moves)
choice-channel = A mention in the game's channel
choice-direct = A direct message
choice-off = No reminders
discord-text-in-file = The whole text is in the attached file { $file }.
discord-button-challenge-accept = Accept
discord-button-challenge-decline = Decline
discord-button-draw-accept = Accept the draw
discord-button-draw-decline = Decline the draw
discord-button-board = Board
discord-button-draw-offer = Offer a draw
discord-button-resign = Resign
discord-button-resign-confirm = Yes, resign
discord-resign-confirm = Do you really want to resign game #{ $game }?
discord-servers-only = pawnpost plays in servers: use this command in a channel of a server we share.
discord-rate-limited = You are sending commands a little fast: please wait a minute and try again.
discord-unknown-button = This button no longer does anything.
discord-done = Done.
discord-not-installed = pawnpost is not installed in this server, so it could never post a game's notices here: ask the server's admins to add it, or play in a server where it is.
discord-private-undelivered = I could not answer you privately in time, and your direct messages are closed: run the command again to see your answer.
discord-answered-privately = Answered privately.
## competitions
rating-current = { $player }: rating { $rating } (deviation { $deviation }, { $games ->
        [one] { $games } rated game
       *[other] { $games } rated games
    })
rating-chess960 = Chess960: rating { $rating } (deviation { $deviation }, { $games ->
        [one] { $games } rated game
       *[other] { $games } rated games
    })
rating-chart-title = { $player }: rating history
rating-chart-x = Date
rating-chart-y = Rating
rating-unknown = I do not know { $player } here yet.
rating-change = { $player } { $before } → { $after } ({ $delta })
standings-png-title = Standings
team-standings-png-title = Teams' standings (vote games)
standings-png-percent-value = { $value }%
standings-png-header-rank = #
standings-png-header-player = Player
standings-png-header-played = Played
standings-png-header-won = Won
standings-png-header-drawn = Drawn
standings-png-header-lost = Lost
standings-png-header-points = Points
standings-png-header-percent = %
season-unknown = There is no season called { $season }.
record-line = { $player } against { $opponent }: { $won } won, { $drawn } drawn, { $lost } lost
## Board images
gif = Game #{ $game }: { $white } – { $black }, { $plies } { $plies ->
        [one] ply
       *[other] plies
    }.
gif-failed = The animation of game #{ $game } could not be drawn.
gif-sampled = A long game: the animation shows { $frames } of its { $positions } { $positions ->
        [one] position
       *[other] positions
    }, evenly spaced, the first and the last among them.
gif-busy = Your previous animation is still being drawn: please wait for it before asking for another.
gif-later = You may ask for { $limit ->
    [one] { $limit } animation
   *[other] { $limit } animations
} an hour: please try again in { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}.

## ladder
ladder-header = Challenge ladder (challenge up to { $places } { $places ->
        [one] place
       *[other] places
    } above):
ladder-line = { $place }. { $player }
ladder-empty = Nobody is on the ladder yet: /ladder join to be the first.
ladder-png-title = Challenge ladder
ladder-png-place = Place
ladder-png-player = Player
ladder-joined = { $player } joins the ladder at place { $place }.
ladder-left = { $player } leaves the ladder; everyone below moves up one place.
ladder-already-on = You are already on the ladder.
ladder-not-on = { $player } is not on the ladder.
ladder-not-above = { $player } is not above you on the ladder.
ladder-too-far = { $player } is too far above you: you may challenge at most { $places } { $places ->
        [one] place
       *[other] places
    } up.
ladder-busy = { $player } already has a ladder challenge under way.
ladder-challenged = Ladder challenge C{ $challenge }: { $player } (place { $from }) challenges { $opponent } (place { $to }). { $opponent }, accept within { $days } { $days ->
        [one] day
       *[other] days
    } (/accept C{ $challenge }) or lose your place by forfeit.
ladder-climbed = Ladder: { $player } takes place { $place } from { $opponent }.
ladder-forfeit = Ladder: { $opponent } did not take up the challenge; { $player } takes place { $place } by forfeit.
ladder-unchanged = Ladder: no change between { $player } and { $opponent }.
ladder-withdrawn = Ladder challenge withdrawn: nothing changes.
ladder-game-started = Ladder game #{ $game } begins: { $white } (White) against { $black } (Black). { $turn }, your move.
ladder-inactive-dropped = { $player }, you have played no ladder game for { $days } { $days ->
        [one] day
       *[other] days
    }: you drop to place { $place } on the ladder.
ladder-inactive-removed = { $player }, you have played no ladder game for { $days } { $days ->
        [one] day
       *[other] days
    }: you are taken off the ladder (you were at place { $place }).
cmd-ladder = The challenge ladder: show it, join, leave, challenge a player above

## tournament
tournament-system-round_robin = round robin
tournament-system-double_round_robin = double round robin
tournament-system-swiss = Swiss
tournament-system-knockout = knockout
tournament-system-scheveningen = Scheveningen
tournament-rated = rated
tournament-unrated = unrated
tournament-created = { $player } created tournament { $tournament }: { $system }, { $time }, { $rated }, tie-breaks { $tiebreaks }. Join with /tournament join id:{ $id }.
tournament-none = There is no tournament here. Create one with /tournament create <system>.
tournament-list-header = Tournaments open or running (join one with /tournament join #<number>):
tournament-list-line = { $tournament }: { $system }, { $time }, { $players ->
    [one] { $players } player
   *[other] { $players } players
}, { $state ->
    [entry] open for entry
   *[running] running
}
tournament-list-line-elsewhere = { $tournament }: { $system }, { $time }, { $players ->
    [one] { $players } player
   *[other] { $players } players
}, { $state ->
    [entry] open for entry
   *[running] running
} (club server { $platform } { $server }; you play from here)
tournament-entry-closed = Entry to tournament { $tournament } is closed.
tournament-already-in = You are already in tournament { $tournament }.
tournament-not-in = You are not playing in tournament { $tournament }.
tournament-full = Tournament { $tournament } is full.
tournament-joined = { $player } joined tournament { $tournament } ({ $players } { $players ->
        [one] player
       *[other] players
    }).
tournament-left = { $player } left tournament { $tournament } ({ $players } { $players ->
        [one] player
       *[other] players
    }).
tournament-system-full = Tournament { $tournament } is full: a { $system } tournament takes at most { $max } { $max ->
        [one] player
       *[other] players
    } here.
tournament-max-too-high = A { $system } tournament takes at most { $max } { $max ->
        [one] player
       *[other] players
    } here, not { $asked }.
tournament-not-organiser = Only the organiser or a moderator may start tournament { $tournament }.
tournament-too-few = Tournament { $tournament } cannot start with { $players } { $players ->
        [one] player
       *[other] players
    }: it needs at least { $min }.
tournament-odd-teams = Tournament { $tournament } cannot start: Scheveningen needs an even number of players ({ $players } joined).
tournament-started = Tournament { $tournament } has started with { $players } { $players ->
        [one] player
       *[other] players
    }. Seeds: { $seeds }.
tournament-too-many = Tournament { $tournament } cannot start with { $players } { $players ->
        [one] player
       *[other] players
    }: a { $system } tournament takes at most { $max } here.
tournament-teams = Team A: { $a }. Team B: { $b }.
tournament-round = Tournament { $tournament }: round { $round } is paired.
tournament-your-games = Your games in tournament #{ $tournament }:
tournament-game = Tournament #{ $tournament }, round { $round }: game #{ $game }, { $white } (White) – { $black } (Black).
tournament-bye = Round { $round }: { $player } has a bye.
tournament-finished = Tournament { $tournament } is over. Winner: { $winner }!
tournament-withdraw-not-started = Tournament { $tournament } has not started: use /tournament leave.
tournament-over = Tournament { $tournament } is over.
tournament-withdrawn-annulled = { $player } withdrew from tournament { $tournament } before playing half of their games: their results are annulled.
tournament-withdrawn-forfeits = { $player } withdrew from tournament { $tournament }: their remaining games are lost by forfeit (+/-, not rated).
tournament-pairings-header = Tournament { $tournament }: pairings
tournament-pairings-round = Round { $round }
tournament-pairing = { $board }. { $white } – { $black } (game #{ $game }) { $result }
tournament-pairing-bye = { $player }: bye ({ $points })
tournament-pairings-none = No pairings yet.
tournament-crosstable-header = Tournament { $tournament }: crosstable after round { $round }
tournament-col-player = Player
tournament-col-round = R{ $round }
tournament-cell-white = w
tournament-cell-black = b
tournament-cell-bye = bye
tournament-col-points = Pts
# Tie-break columns: FIDE's acronyms (C.07), the number of wins in words.
tournament-col-de = DE
tournament-col-win = Wins
tournament-col-won = Won
tournament-col-bh = BH
tournament-col-bh-c1 = BH-C1
tournament-col-bh-c2 = BH-C2
tournament-col-bh-m1 = BH-M1
tournament-col-sb = SB
tournament-col-sb-c1 = SB-C1
cmd-tournament = Tournaments (round robin, Swiss, knockout, Scheveningen)
cmd-tournament-create = Create a tournament in this channel
cmd-tournament-join = Join a tournament before it starts
cmd-tournament-leave = Leave a tournament before it starts
cmd-tournament-start = Start a tournament (organiser or moderator)
cmd-tournament-pairings = Show a tournament's pairings
cmd-tournament-standings = Show a tournament's crosstable
cmd-tournament-withdraw = Withdraw from a running tournament
cmd-tournament-list = The tournaments of this server and its club
opt-system = Pairing system
opt-name = Tournament name
opt-rounds = Number of rounds (Swiss)
opt-max = Most players
opt-entry = Days before it starts by itself
opt-bye = Points for a bye (Swiss)
opt-tiebreaks = Tie-breaks in order, by FIDE's acronyms: e.g. BH-C1,BH,SB,DE,WIN
opt-tournament = Tournament number
opt-round = Round number
choice-round_robin = Round robin
choice-double_round_robin = Double round robin
choice-swiss = Swiss
choice-knockout = Knockout
choice-scheveningen = Scheveningen
cmd-play = Challenges, rematches, draws, resigning, more time, takebacks, conditional moves, votes
cmd-game = The board, moves, PGN and GIF of your games, engine reviews, private notes
cmd-club = This server's standings, ratings, records, openings, puzzles and ladder
cmd-draw-offer = Offer a draw
cmd-draw-accept = Accept your opponent's draw offer
cmd-draw-decline = Decline your opponent's draw offer
cmd-if-add = Add a line: their move, your reply, and so on (only you see it)
cmd-if-list = List your conditional moves in a game
cmd-if-clear = Clear your conditional moves in a game
cmd-ladder-show = Show the ladder
cmd-ladder-join = Join the ladder
cmd-ladder-leave = Leave the ladder
cmd-ladder-challenge = Challenge a player above you on the ladder
cmd-leave-start = Start your leave: your clocks stop for that many days
cmd-leave-end = End your leave early
cmd-leave-status = Your leave this year: taken and left
cmd-match-show = Show a match's table
cmd-match-create = Propose a match to another team, here or on another server
cmd-match-accept = Accept a match for your team
cmd-match-join = Sign up for a match
cmd-match-start = Start a match
cmd-match-withdraw = Withdraw your team (its running games are lost)
cmd-notes = Your private notes on a game
cmd-puzzle-next = The next puzzle
cmd-puzzle-answer = Answer the puzzle you were given
cmd-puzzle-solvers = The server's puzzle solvers
cmd-settings-language = Your language for replies and notation
cmd-settings-server-language = For moderators: the server's language for public messages
cmd-settings-notify = Where turn notices and reminders reach you
cmd-settings-notation = The notation you write moves in: English, French, German, or auto
cmd-settings-web = For moderators: the server's pages (standings, tournaments, players) on the web, or not
cmd-takeback-request = Ask to take back your last move
cmd-takeback-accept = Accept your opponent's takeback request
cmd-takeback-decline = Decline your opponent's takeback request
cmd-team-list = List the teams of this server and of its club
cmd-team-create = Create a team (you are its first member)
cmd-team-join = Join a team
cmd-team-leave = Leave a team
cmd-team-delete = Delete a team (its creator or a moderator)
cmd-vote-move = Vote for your team's move
cmd-vote-draw = Vote for a move with a draw offer
cmd-vote-resign = Vote to resign
cmd-vote-accept = Vote to accept the draw offer
opt-command = A command, e.g. draw or tournament create
opt-reviews = When engine reviews of its games may be asked for
choice-anytime = As soon as a game ends
choice-after_round = Once the game's whole round is over
choice-one = 1 point
choice-half = ½ point
choice-zero = 0 points

## Delivery
status-notices = Notices of the last { $days } { $days ->
        [one] day
       *[other] days
    } on this server: { $refused } could not be delivered, { $waiting } { $waiting ->
        [one] waits
       *[other] wait
    } for another try.
edit-not-carried-out = That command was already carried out: an edit does not change it. Send a new message instead.
status-last-refusal = Last refusal: { $error }

## Conditional moves
move-played-conditional = { $player } played { $san } in game #{ $game } (conditional move).
if-stored = Stored in game #{ $game }, seen only by you:
if-list = Your conditional moves in game #{ $game }, seen only by you:
if-none = You have no conditional moves in game #{ $game }. Store one with /if e5 Nf3 (if they play e5, you reply Nf3).
if-cleared = Your conditional moves in game #{ $game } are cleared.
if-played = { $player }, your conditional move { $san } was played in game #{ $game }, in reply to { $theirs }.
if-game-over = Game #{ $game } is over: no conditional moves any more.
if-too_short = A line needs their move and your reply, for example /if e5 Nf3.
if-ends_with_their_move = A line ends with your reply: what would you play after the last move?
if-too_long = A line holds at most { $max ->
    [one] { $max } move
   *[other] { $max } moves
}.
if-too_many = You can keep at most { $max ->
    [one] { $max } line
   *[other] { $max } lines
} in a game; /if clear to start again.
if-other_reply = Another of your lines already replies { $stored } there. One move of theirs gets one reply: /if clear to change it.
if-bad_move = Move { $at } of the line: { $refusal }

## Private notes
note-kept = Note kept on game #{ $game }, seen only by you (/notes to read them; they are in your /pgn).
notes-none = You have no notes on game #{ $game }. Write one with /note <text>.
notes-list = Your notes on game #{ $game }, seen only by you:
note-at-start = before the first move:
note-after = after { $move }:

## Opening statistics
openings-none = No finished game here has a named opening yet.
openings-header = Openings of { $games ->
    [one] { $games } finished game
   *[other] { $games } finished games
} here (White's wins, draws, Black's wins; White's score):
openings-line = { $eco } { $name }: { $games ->
    [one] { $games } game
   *[other] { $games } games
}, +{ $white } ={ $draws } −{ $black } ({ $score }%)
openings-png-title = Openings played
openings-png-header-eco = ECO
openings-png-header-opening = Opening
openings-png-header-games = Games
openings-png-header-white = 1-0
openings-png-header-draws = ½-½
openings-png-header-black = 0-1
openings-png-header-score = White

## Takebacks (casual games only)
takeback-requested = { $player } asks to take back their last move. { $opponent }: /takeback accept or /takeback decline.
takeback-declined = { $player } declines the takeback.
taken-back = { $plies ->
    [one] { POSSESSIVE($player) } last move is taken back.
   *[other] { POSSESSIVE($player) } last move and the reply to it are taken back.
}
refused-nothing_to_take_back = You have no move to take back.
refused-takeback_already_requested = A takeback is already asked for in this game.
refused-no_takeback_request = There is no takeback to answer.
refused-takeback_not_allowed = Takebacks are for casual games only: never in rated, tournament, ladder or team match games.

## Engine reviews of finished games (/review)
review-no-finished-game = You have no finished game in this channel to review; name one with game:N.
review-running = Game #{ $game } is still being played: it can be reviewed once it is over.
review-no-moves = Game #{ $game } ended before any move was played: there is nothing to review.
review-after-round = Game #{ $game } is in a tournament whose organiser keeps reviews until the round is over: ask again when every game of its round has ended.
review-too-long = Game #{ $game } is too long to review (at most { $max } { $max ->
        [one] move
       *[other] moves
    }).
review-no-engine = This bot has no chess engine, so it cannot review games. Its operator can install Stockfish and set [analysis] engine.
review-busy = { $waiting ->
    [one] { $waiting } review is being made already
   *[other] { $waiting } reviews are being made already
}; please ask again in a few minutes.
review-failed = The engine failed while reviewing game #{ $game }; please try again later.
review-header = Engine review of game #{ $game } ({ $white } – { $black }), { $engine } at { $nodes } { $nodes ->
        [one] node
       *[other] nodes
    } per position:
review-engines-busy = { $max ->
    [one] The engine is busy with another review ({ $max } at a time here); please ask again in a few minutes.
   *[other] All { $max } engines are reviewing other games right now; please ask again in a few minutes.
}
review-timed-out = The engine took longer than { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
} over game #{ $game }, so it was stopped and nothing was kept; please try again later.
review-side = { $side } ({ $player }): accuracy { $accuracy }%, average centipawn loss { $acpl }, { $inaccuracies ->
    [one] { $inaccuracies } inaccuracy
   *[other] { $inaccuracies } inaccuracies
}, { $mistakes ->
    [one] { $mistakes } mistake
   *[other] { $mistakes } mistakes
}, { $blunders ->
    [one] { $blunders } blunder
   *[other] { $blunders } blunders
}
review-side-white = White
review-side-black = Black
review-blunder = Blunder: { $move }{ $best ->
    [none] {""}
   *[other] {""} ({ $best } was best)
}
review-mistake = Mistake: { $move }{ $best ->
    [none] {""}
   *[other] {""} ({ $best } was best)
}
review-chart-title = Evaluation
review-chart-x = Move
review-chart-y = White's win %
review-chart-inaccuracy = Inaccuracy
review-chart-mistake = Mistake
review-chart-blunder = Blunder

## The server's puzzles (/puzzle)
puzzle-none = No puzzle is waiting for you here. Puzzles come from the blunders of this server's reviewed games (/review).
puzzle-none-open = You have no puzzle to answer: /puzzle gives you one.
puzzle-shown = Puzzle #{ $puzzle }, from game #{ $game }: { $side } to play and win. Answer with /puzzle <move>.
puzzle-solved = Solved! { $answer } wins (puzzle #{ $puzzle }). /puzzle for the next one.
puzzle-missed = Not { $answer }: { $solution } was the winning move (puzzle #{ $puzzle }). /puzzle for the next one.
puzzle-solvers-none = Nobody has answered a puzzle here yet.
puzzle-solvers-header = Puzzle solvers here (solved of tried):
puzzle-solvers-line = { $rank }. { $player }: { $solved } of { $tried }
puzzle-solvers-png-title = Puzzle solvers
puzzle-solvers-png-rank = #
puzzle-solvers-png-player = Player
puzzle-solvers-png-solved = Solved
puzzle-solvers-png-tried = Tried

## Teams (/team) and vote chess (/vote)
team-created = { $player } created team { $team }, and is its first member. Others join with /team join { $team }.
team-exists = There is already a team named { $team } here.
team-not-found = There is no team named { $team } here: /team list shows them.
team-joined = { $player } joined team { $team }.
team-left = { $player } left team { $team }.
team-deleted = { $player } deleted team { $team }.
team-already-member = You are already in team { $team }.
team-not-member = You are not in team { $team }.
team-none-joined = You are in no team here.
team-which = You are in several teams: name the one to leave, for example /team leave { $teams }.
team-full = Team { $team } already has { $max } { $max ->
        [one] member
       *[other] members
    }.
team-too-many = This server already has { $max } { $max ->
        [one] team
       *[other] teams
    }.
team-delete-refused = Only the creator of team { $team } or a moderator can delete it.
team-plays = Team { $team } is playing a game: it can be deleted once its games are over.
team-list-empty = No team here yet. Create one with /team create <name>.
team-list-header = Teams here:
team-list-line = { $team } ({ $count ->
    [one] { $count } member
   *[other] { $count } members
}): { $members }
team-list-more = …and { $count } more.
# A team of another server of the club, after its line: `discord:1001`.
team-list-from = (of { $server })
team-challenge-not-member = Only members of team { $team } can challenge for it: /team join { $team }.
team-challenge-same = A side cannot play itself.
team-challenge-member-opponent = { $player } is in team { $team }, so they cannot play against it.
team-challenge-per-move = A vote game takes a time per move, such as time:3d or time:12h: each of a team's votes ends when its time is up.
vote-game-line = A vote game: a team's members vote on each of its moves with /vote <move>; the most voted move is played when the team's time is up, or as soon as every member has voted. Votes { $changeable ->
    [yes] may be changed until then
   *[other] are final
}, and secret until the move.
vote-your-move = Team { $player } to move: its members vote with /vote <move>.
vote-cast = Your vote in game #{ $game }: { $choice }. Only you see it until the move is played. Votes cast in team { $team }: { $cast } of { $members }.
vote-changed = Your vote in game #{ $game } is now: { $choice }. Only you see it until the move is played. Votes cast in team { $team }: { $cast } of { $members }.
vote-same = You have already voted { $choice } in game #{ $game }.
vote-final = You have already voted on this move in game #{ $game }, and this game's votes cannot be changed.
vote-reminder = { $player }, team { $team } is to move in game #{ $game }: { $left } left. Vote with /vote <move>.
vote-no-game = None of your teams is playing a game here. /team list shows the teams; /board <game> shows a game.
vote-which-game = Your teams play several games here; add game:<id> to your vote: { $games }
vote-not-member = You are not in the team to move in game #{ $game }.
vote-not-your-turn = It is not your team's move in game #{ $game }: vote when it is.
vote-opponent = You play against this team in game #{ $game }, so you cannot vote for it.
vote-closed = The time for this move is up in game #{ $game }: the votes are being counted.
vote-choice-move = { $san }
vote-choice-move-draw = { $san } with a draw offer
vote-choice-resign = resign
vote-choice-accept = accept the draw
vote-tally = Votes of team { $player }: { $votes }.
vote-tally-move = { $san } { $votes }
vote-tally-resign = resign { $votes }
vote-tally-accept = accept the draw { $votes }
vote-tally-offers = { $votes } with a draw offer
match-created = Team match #{ $match } proposed: { $home } against { $away }, up to { $boards } { $boards ->
        [one] board
       *[other] boards
    } of two games each (one with each colour), { $time }. { $elsewhere ->
    [yes] A member of { $away } accepts it on their server with /match accept { $match }, in the channel they will play from.
   *[other] A member of { $away } accepts it with /match accept { $match }, in the channel they will play from.
} Members of both teams sign up with /match join { $match }.
match-not-found = There is no team match #{ $match } here.
match-none = There is no team match here yet. Propose one with /match create team:<your team> vs:<their team> [server:<their server's id>] boards:4.
match-server-unknown = I am not in a server { $server } here, or nobody has used me there yet.
match-team-not-found = There is no team named { $team } on that server.
match-team-several = Several servers of the club have a team named { $team }: { $servers }. Name theirs with server:, as server:{ $first }.
match-accepted-already = Team match #{ $match } ({ $home } against { $away }) was already accepted.
match-accept-refused = Only a member of { $away } (or a moderator), on their own server, can accept team match #{ $match }.
match-accepted = { $player } accepted team match #{ $match } for { $away }: { $home } against { $away }. Members of both teams sign up with /match join { $match }.
match-signup-closed = Sign-up for team match #{ $match } ({ $home } against { $away }) is closed.
match-join-not-member = Only members of { $home } or { $away } sign up for team match #{ $match }, each on their team's server.
match-join-both = You are in both { $home } and { $away }: you cannot sign up for team match #{ $match }.
match-already-joined = You are already signed up for team match #{ $match }.
match-joined = { $player } signed up for { $team } in team match #{ $match } ({ $count ->
    [one] { $count } player
   *[other] { $count } players
} so far).
match-not-accepted = Team match #{ $match } waits for { $away } to accept it.
match-start-refused = Only the member who proposed team match #{ $match } or a moderator of its server can start it.
match-too-few = Team match #{ $match } needs at least one player signed up on each side.
match-started = Team match #{ $match } starts: { $home } against { $away } on { $boards ->
    [one] { $boards } board
   *[other] { $boards } boards
}, paired by rating, two games a board:
match-board-line = Board { $board }: game #{ $game }, { $white } ({ $white_rating }) with White against { $black } ({ $black_rating })
match-not-joined = You are not signed up for team match #{ $match }.
match-withdrawn = { $player } withdrew from team match #{ $match }.
match-withdrawn-forfeits = { $player } withdrew from team match #{ $match }: { $count ->
    [one] { $count } game still running is lost
   *[other] { $count } games still running are lost
}.
match-table-header = Team match #{ $match }: { $home } { $home_points } – { $away_points } { $away } ({ $state ->
    [proposed] waiting for { $away } to accept
    [signup] sign-up open
    [running] { $running ->
        [one] { $running } game running
       *[other] { $running } games running
    }
   *[other] over
})
match-signed-up = { $team }: { $count ->
    [0] { $count } players signed up yet
    [one] { $count } player signed up: { $players }
   *[other] { $count } players signed up: { $players }
}
match-score = Team match #{ $match }: { $home } { $home_points } – { $away_points } { $away } ({ $running ->
    [one] { $running } game running
   *[other] { $running } games running
}).
match-result = Team match #{ $match } is over: { $home } { $home_points } – { $away_points } { $away }. { $drawn ->
    [yes] The match is drawn.
   *[other] { $winner } win the match.
}
match-png-title = Team match
match-png-header-board = Board
match-png-header-first = { $home } on White
match-png-header-second = { $home } on Black
match-png-header-score = Score { $home }–{ $away }
match-png-total = Total
match-table-legend = Scores read { $home }–{ $away }, each board's game with { POSSESSIVE($home) } player on White first:
match-board-row = { $board }. { $home } – { $away }: { $games } (board { $home_points }–{ $away_points })
match-table-total = Total: { $home } { $home_points } – { $away_points } { $away }

## Web pages (issue 43)
web-link = Page: { $url }
web-settings-on = This server's pages (standings, ladder, openings, tournaments, team matches, players) are now on the web.
web-settings-off = This server's pages are no longer on the web (games stay reachable by their links).
web-to-move = { $player } to move
web-flag-at = Flag falls:
web-live-over = The game is over.
web-live = Live
web-board = Board
web-first = First position (Home)
web-prev = Previous move (←)
web-next = Next move (→)
web-last = Last position (End)
web-flip = Flip the board
web-rated = rated
web-casual = casual
web-download-pgn = Download PGN
web-download-gif = Download GIF
web-review = Engine review
web-accuracy = Accuracy
web-eval-graph = Evaluation graph
web-server = Server
web-rating-chart = Rating
web-empty = Nothing yet.
web-more = More games
web-white = White
web-black = Black
web-result = Result
web-crosstable = Crosstable
web-round = Round { $round }
web-boards = Boards
web-rank = #
web-player = Player
web-games = Games
web-points = Points
web-score = Score
web-standings = Standings
web-ladder = Ladder
web-opening = Opening
web-white-wins = White wins
web-draws = Draws
web-black-wins = Black wins
web-openings = Openings
web-tournaments = Tournaments
web-tournament = Tournament
web-games-list = Games, ongoing first, then the last finished first
web-ongoing = ongoing

## Linked accounts, games everywhere, the daily digest (issue 44)
cmd-link = Link your accounts: get a one-time code here, type it on your other platform
cmd-unlink = Separate this account from the player it is linked to
cmd-settings-timezone = Your time zone (an IANA name such as Europe/Paris) for the daily digest
cmd-settings-digest = A daily digest at this local time (HH:MM), or off
opt-link_code = The code you got with /link on your other account
opt-zone = An IANA time zone name, such as Europe/Paris or America/New_York; UTC for none
opt-at = A local time as HH:MM (24-hour), or off
opt-scope = Which games: here, everywhere (every server and platform), or finished
choice-here = Running games on this server
choice-everywhere = Running games on every server and platform
choice-finished = Finished games, latest first
link-code = Your link code: { $code } (valid { $minutes } { $minutes ->
        [one] minute
       *[other] minutes
    }, once). On your account on the other platform, type: /link { $code } — never show it to anyone.
link-code-kept = A link code was shown to you for this request. Type /link again for a new one.
link-done = Linked: this account and { $other } ({ $platform }) are now one player: one language, one notification setting, one digest, and one list of games (/games everywhere).
link-too-many-tries = Refused: too many wrong link codes in the last hour. Try again later.
link-unknown-code = Refused: this link code is unknown, used or expired. Ask for a new one with /link on your other account.
link-same-account = Refused: this code was made by this account or one linked to it; type it on your other platform.
link-same-platform = Refused: both accounts are on the same platform; link accounts of two platforms.
link-already-linked = Refused: this account is already linked to another; /unlink it first.
link-platform-taken = Refused: that player already has a linked account on this platform.
unlink-done = Unlinked: this account is a player of its own again.
unlink-not-linked = This account is not linked to any other.
games-everywhere-none = You have no running games on any server.
games-everywhere-header = Your running games everywhere:
games-everywhere-line = #{ $game } { $white } – { $black }: { $yours ->
    [yes] your move
   *[other] { $player } to move
}, { $left } left — { $where }
games-finished-none = You have no finished games.
games-finished-header = Your finished games, latest first:
games-finished-line = #{ $game } { $white } – { $black }: { $result } ({ $ended }) — { $where }
games-no-clock = no clock
timezone-unknown = Refused: that is not a time zone I know. Give an IANA name such as Europe/Paris, America/New_York or Asia/Tokyo (or UTC).
timezone-set = Your time zone is now { $zone } (it is { $time } there).
digest-set = Your daily digest will come at { $time } ({ $zone }) as a direct message on { $platform }, when there is something to tell.
digest-off = No more daily digest.
digest-header = Your daily digest: { $moves } { $moves ->
        [one] game
       *[other] games
    } where it is your move, { $finished } { $finished ->
        [one] game
       *[other] games
    } finished, { $challenges } { $challenges ->
        [one] challenge
       *[other] challenges
    } waiting.
digest-your-move = Your move (most urgent first):
digest-move-line = • #{ $game } { $white } – { $black }: { $left } left — { $where }
digest-finished = Finished since the last digest:
digest-finished-line = • #{ $game } { $white } – { $black }: { $result }
digest-challenges = Challenges waiting for you:
digest-challenge-line = • #{ $id }: { $player } challenges you
cmd-club-invite = For moderators: invite a server of any platform into this server's club
cmd-club-join = For moderators: accept a club's invitation for this server
cmd-club-quit = For moderators: this server leaves its club (games already running end as they would)
cmd-club-servers = The servers of this server's club, members and invited
opt-platform = The invited server's platform
opt-guest = The invited server's id: a Discord server id, or a Matrix space id such as !abc:example.org
opt-club = The club's number, from its invitation
choice-discord = Discord
choice-matrix = Matrix
choice-console = The console
club-invite-self = Refused: name another server than this one.
club-already-member = That server is already a member of this club.
club-guest-taken = Refused: that server is a member of another club; it must quit it first.
club-invited = Club #{ $club } invites the { $platform } server { $server }. A moderator of that server joins by typing there: /club join { $club }
club-not-invited = Refused: this server has no invitation to club #{ $club }. A moderator of a member server must invite it first (/club invite).
club-quit-first = Refused: this server is a member of another club; /club quit first.
club-joined = This server joined club #{ $club }, with { $servers }: one standings table for all of them.
club-left = This server left club #{ $club }. Its games stay with it; games already running end as they would.
club-none = This server is in no club.
club-servers-header = The servers of club #{ $club }:
club-server-line = • { $platform } { $server }: { $member ->
    [yes] member
   *[other] invited
}
challenge-cross-no-club = Refused: this server is in no club, so it cannot challenge a player of another platform. A moderator can form one with /club invite.
challenge-cross-unknown = Refused: I do not know that player on that platform; they must have used the bot there.
challenge-cross-hint = Accept it with /accept { $challenge } in a channel of a server of the club, where you will play the game.
opt-member = A club member on another platform: matrix:@ann:example.org or discord:<user id>
