# Les messages de pawnpost en français. Mêmes clés que en.ftl (un test le vérifie).

## Résultats
result-checkmate = { $winner } gagne par échec et mat.
result-stalemate = Nulle par pat.
result-dead_position = Nulle : plus aucun camp ne peut mater (position morte).
result-fivefold = Nulle par quintuple répétition.
result-seventy_five_moves = Nulle par la règle des 75 coups.
result-threefold = Nulle par triple répétition, sur réclamation { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    }.
result-fifty_moves = Nulle par la règle des cinquante coups, sur réclamation { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    }.
result-agreement = Nulle par accord mutuel.
result-resignation-win = { $loser } abandonne ; { $winner } gagne.
result-resignation-draw = { $loser } abandonne, mais { $winner } ne pouvait plus mater : nulle.
result-timeout-win = { $loser } a dépassé son temps ; { $winner } gagne.
result-timeout-draw = { $loser } a dépassé son temps, mais { $winner } ne pouvait plus mater : nulle.
result-abort = Partie annulée : aucun résultat.
result-no_show = { $loser } n’a jamais joué son premier coup : { $winner } gagne par forfait (+/-, sans effet sur les cotes).
result-adjudication = Arbitrée par un modérateur : { $result }.
result-recorded = Résultat tel qu’enregistré là où la partie s’est jouée : { $result }.
game-over = La partie n° { $game } est terminée : { $result }

## Jeu
move-played = { $player } a joué { $san } dans la partie n° { $game }.
your-move = { $player }, à vous de jouer.
draw-offered = { $player } propose la nulle. { $opponent } : /nulle accepter ou /nulle refuser.
draw-declined = { $player } refuse la nulle.
draw-offer-lapsed = La proposition de nulle est caduque : un coup a été joué.
claim-refused = La réclamation de nulle { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    } n’est pas fondée ; la partie continue et elle vaut proposition de nulle.
claim-with-move = { $player } a réclamé avec le coup { $san }, qui est noté mais pas joué.

## Défis
challenge-open = { $player } propose une partie (défi C{ $challenge }) à qui veut ici : /accepter C{ $challenge }.
challenge-direct = { $player } défie { $opponent } (défi C{ $challenge }) : /accepter ou /refuser.
challenge-rematch = { $player } propose à { $opponent } une revanche de la partie n° { $game }, couleurs inversées (défi C{ $challenge }) : /accepter ou /refuser.
rematch-no-game = Vous n’avez ici aucune partie terminée à rejouer. Nommez-la : /revanche <partie>.
rematch-not-over = Cette partie continue : la revanche vient après sa fin.
rematch-not-two-players = Seule une partie entre deux joueurs peut être rejouée (pas celle d’une équipe ni d’une rencontre).
challenge-continued = { $player } défie { $opponent } (défi C{ $challenge }) de continuer une partie commencée ailleurs, à partir du coup { $move }, { $side ->
    [white] les Blancs
   *[black] les Noirs
} au trait (partie non classée) : /accepter ou /refuser.
game-continued = La partie n° { $game } reprend au coup { $move } : { $white } (Blancs) contre { $black } (Noirs). { $turn }, à vous de jouer.
challenge-continued-open = Une partie commencée ailleurs se continue avec son adversaire : nommez-le (/defi @joueur pgn:"...").
challenge-continued-fen = Donnez soit la position (fen: ou depart:), soit la partie jusqu’ici (pgn:), pas les deux.
challenge-continued-rated = Une partie commencée ailleurs n’est jamais classée : retirez rated:.
challenge-continued-color = Quelle couleur aviez-vous dans cette partie ? Ajoutez color:white ou color:black.
pgn-too_long = Ce PGN est trop long.
pgn-syntax = Ce PGN est illisible.
pgn-no_game = Ce texte ne contient aucune partie : donnez ses coups en PGN (notation anglaise), par exemple pgn:"1. e4 e5 2. Nf3".
pgn-unsupported_variant = Seuls les échecs classiques et le Chess960 peuvent être continués, pas { $variant }.
pgn-bad_fen = La FEN de cette partie est inutilisable.
pgn-setup = Cette partie ne peut pas être mise en place.
pgn-illegal_move = { $move } n’est pas un coup légal dans cette partie.
pgn-moves_after_end = Cette partie continue après sa fin (coup { $move }).
pgn-result_mismatch = Le résultat de cette partie ne découle pas de ses coups.
pgn-result_conflict = Cette partie donne deux résultats différents.
pgn-already_over = Cette partie est terminée ({ $result }) : il n’y a rien à continuer.
game-started = La partie n° { $game } commence : { $white } (Blancs) contre { $black } (Noirs). { $turn }, à vous de jouer.
challenge-declined = { $player } refuse le défi C{ $challenge }.
challenge-cancelled = Le défi C{ $challenge } est annulé.
no-challenge = Aucun défi ouvert pour vous ici.
challenge-own = Vous ne pouvez pas accepter votre propre défi.
challenge-not-for-you = Le défi C{ $challenge } est destiné à quelqu’un d’autre.
challenge-self = Vous ne pouvez pas vous défier vous-même.
challenge-limit = Vous avez déjà { $limit ->
    [one] { $limit } défi ouvert
   *[other] { $limit } défis ouverts
}, le maximum permis : annulez-en un avec /retirer ou attendez une réponse.
setup-bad_fen = Ce n’est pas une FEN.
setup-fen_too_long = Cette FEN est trop longue.
setup-illegal_position = Cette FEN n’est pas une position d’échecs légale.
setup-already_over = Cette position est déjà mat ou pat.
setup-dead_position = Aucun camp ne pourrait jamais mater depuis cette position (position morte) : la partie serait nulle avant son premier coup.
setup-counter_too_large = Les compteurs de coups de cette FEN sont trop grands : le compteur de demi-coups et le numéro du coup valent au plus 4294967295.

## Trouver la partie
no-game = Vous n’avez aucune partie en cours ici.
game-not-found = Il n’y a pas de partie n° { $game } sur ce serveur.
act-told-in-game-channel = C’est fait. La partie n° { $game } se joue dans { $channel } : c’est annoncé là-bas.
which-game = Vous avez plusieurs parties ici ; ajoutez game:<n°> à votre commande :
which-game-line = n° { $game } contre { $opponent }
game-line = n° { $game } { $white } – { $black } : { $state }
game-line-to-move = { $player } au trait
games-none = Vous n’avez aucune partie en cours sur ce serveur.
games-header = Vos parties :

## Informations
board = Partie n° { $game } : { $white } – { $black }, { $turn } au trait.
board-over = Partie n° { $game } : { $white } – { $black }, terminée ({ $score }) : { $result }
# Les noms d'ouvertures sont ceux, anglais, des tables de lichess.
board-opening = Ouverture : { $eco } { $name }
variant-chess960 = Chess960 n° { $number }
variant-chess960-position = Chess960, depuis une position donnée
challenge-start_and_fen = Donnez un numéro de départ ou une FEN, pas les deux.
moves-none = Aucun coup pour l’instant.
standings-header = Classement (gain 1, nulle ½, perte 0) :
standings-line = { $rank }. { $player } : { $points } { $half ->
        [0] point
        [1] point
        [2] point
        [3] point
       *[other] points
    } ({ $played } { $played ->
        [one] partie
       *[other] parties
    } : +{ $won } ={ $drawn } -{ $lost })
standings-teams-header = Équipes, en parties en consultation :
standings-none = Aucune partie terminée pour l’instant.
console-help =
    Dans la console, chaque ligne est `nom: /commande` (`alice: /coup e4`) ; les lignes qui commencent par `:` règlent la console :
    :channel NOM, :server NOM : où se passent les actes suivants · :lang NOM fr : le client de NOM parle français · :moderator NOM : NOM modère
    :advance 3d (ou 5h, 30m), :now 2026-01-01T12:00:00Z : avancer l’horloge simulée (avec --now) · # commence un commentaire · Ctrl-D pour quitter
language-set = Langue : français.
language-reset = Langue : celle du serveur.
server-language-set = La langue du serveur est désormais : { $language }. Elle vaut pour les messages publics, et pour les avis aux joueurs qui n’ont pas choisi leur propre langue.
server-language-default = La langue du serveur est de nouveau celle du bot par défaut : { $language }.
notation-set-en = Vos coups sont désormais lus en notation anglaise (K Q R B N) : R est la tour, et je ne pose plus de question sur ses lettres.
notation-set-fr = Vos coups sont désormais lus en notation française (R D T F C) : R est le roi, et je ne pose plus de question sur ses lettres.
notation-set-de = Vos coups sont désormais lus en notation allemande (K D T L S) : je ne pose plus de question sur ses lettres.
notation-auto = Vos coups sont de nouveau lus dans toutes les notations : quand un texte peut désigner deux coups, je demande.
notation-letter-settled = C’est noté : désormais « { $letter } » désigne { $piece } pour vous, et je ne vous poserai plus la question (/reglages notation pour changer).
notation-ask-once = Votre choix m’apprend aussi ce que cette lettre désigne pour vous ; ou dites une fois votre notation : /reglages notation francaise, anglaise ou allemande.
piece-king = le roi
piece-queen = la dame
piece-rook = la tour
piece-bishop = le fou
piece-knight = le cavalier
piece-pawn = un pion
help-header = Commandes (les noms anglais marchent aussi ; /help <commande> donne les options d’une commande) :
help-line = { $about } : { $calls }
help-notes =
    Cadences (défi cadence:…) : 3d, 30d+1d, 30d+1d max 45d, 10/50d, 5d delay 1d, none.
    Coups : Cf3, e4, O-O, e8=D, g1f3, Cg1-f3, et les lettres anglaises (Nf3, Qd1, e8=Q).
help-unknown = Je ne connais pas de commande « { $command } ». Tapez /aide pour la liste.

## Refus des règles
refused-not_a_player = Vous ne jouez pas dans cette partie.
refused-not_a_moderator = Seul un modérateur peut faire cela.
refused-not_the_clock = Seule la pendule peut faire cela.
refused-game_over = Cette partie est déjà terminée.
refused-not_your_turn = Ce n’est pas votre tour.
refused-no_draw_offer = Il n’y a pas de proposition de nulle à laquelle répondre.
refused-already_offered = Vous avez déjà proposé la nulle.
refused-agreement_forbidden = Les nulles par accord ne sont pas permises sur ce serveur.
refused-agreement_too_early = Une nulle ne peut être convenue qu’après { $moves ->
    [one] { $moves } coup
   *[other] { $moves } coups
} de chaque camp.
refused-too_late_to_abort = Trop tard pour annuler : les deux camps ont joué. Vous pouvez abandonner ou proposer la nulle.
refused-adjudication_needs_result = Un arbitrage demande un résultat : 1-0, 0-1 ou 1/2-1/2.
refused-note_too_long = Cette note est trop longue.

## Refus d’un coup
move-too_long = C’est trop long pour être un coup.
move-syntax = « { $input } » n’est pas un coup. Essayez Cf3, e4, O-O ou g1f3.
move-ambiguous = « { $input } » peut désigner plusieurs coups : { $candidates }. Rien n’a été joué : choisissez celui que vous voulez.
move-illegal-no_such_piece = « { $input } » : vous n’avez pas cette pièce.
move-illegal-cannot_reach = « { $input } » : aucune de vos pièces ne peut aller là.
move-illegal-path_blocked = « { $input } » : le chemin est barré.
move-illegal-king_in_check = « { $input } » : votre roi serait en échec.
move-illegal-castling_rights_lost = « { $input } » : vous ne pouvez plus roquer de ce côté.
move-illegal-castling_not_now = « { $input } » : vous ne pouvez pas roquer maintenant (échec, case attaquée ou pièce sur le chemin).
move-illegal-own_piece_on_target = « { $input } » : une de vos pièces occupe déjà cette case.
move-illegal-bad_promotion = « { $input } » : un pion qui atteint la dernière rangée doit être promu (e8=D), et seulement alors.
move-hints = Coups légaux de cette pièce : { $moves }.

## Refus d’une commande
command-too_long = Cette commande est trop longue.
command-empty = Tapez une commande, par exemple /aide.
command-unknown_command = { $suggestion ->
    [none] Commande inconnue. Tapez /aide pour la liste.
   *[other] Commande inconnue : vouliez-vous dire /{ $suggestion } ? Tapez /aide pour la liste.
}
command-missing_argument = { $what ->
    [move] Quel coup ? Par exemple : /coup e4 (ou /coup Cf3, /coup O-O).
    [text] Que noter ? Par exemple : /note Prévoir f4 après le roque.
    [moves] Quelle suite ? Par exemple : /si e5 Cf3 Cc6 Fb5 (s’il joue e5, vous répondez Cf3 ; puis s’il joue Cc6, Fb5), ou /si liste, /si effacer.
    [user] Qui ? Nommez un joueur : @nom.
    [player] Qui ? Nommez un joueur : @nom.
    [days] Combien de jours ? Par exemple : /plus_de_temps 2 ou /conge debut 7.
    [language] Quelle langue ? /reglages langue fr, en ou defaut.
    [subcommand] Quelle sous-commande ? /aide <commande> les donne, par exemple /aide tournoi.
    [system] Quel genre de tournoi ? toutes_rondes, double_toutes_rondes, suisse, elimination ou scheveningue.
    [team] Quelle équipe ? Par exemple : /equipe rejoindre Les Tours.
    [opponent] Contre qui ? Un joueur (@nom) ou une équipe (vs:<équipe>).
   *[other] Il manque quelque chose : { $option }. Tapez /aide pour la liste.
}
command-bad_value = { $what ->
    [subcommand] « { $value } » n’est pas une sous-commande de cette commande. /aide les donne.
   *[other] « { $value } » n’est pas valable pour l’option { $option }.
}
command-unexpected_argument = Je n’ai pas compris « { $value } ».
command-not_a_mention = Je n’ai pas compris « { $value } » : pour désigner un joueur, écrivez @{ $value }.
command-unclosed_quote = Un guillemet n’est pas fermé.
command-unknown_tiebreak = « { $value } » n’est pas un départage que je connais. Donnez les sigles de la FIDE dans l’ordre, séparés par des virgules, parmi : { $valid } (par exemple tiebreaks:bh-c1,bh,sb).
command-repeated_tiebreak = { $value } est donné deux fois : donnez chaque départage une seule fois, dans l’ordre, parmi : { $valid }.
command-hidden_character = Refusé : il y a un caractère invisible ou qui change le sens d’écriture ({ $code }) dans l’option { $option } tapée ; le bot afficherait autre chose que ce que vous voyez. Retapez-la sans ce caractère.

## Incident de notre côté
internal-error = Un incident s’est produit de mon côté et rien n’a été modifié. Merci de réessayer.
stored-data-damaged = Refusé : mes données enregistrées pour cela sont endommagées, je n’ai donc rien modifié. L’opérateur du bot doit vérifier la base (`pawnpost check`) et la restaurer depuis une sauvegarde.
database-busy = Ma base de données est occupée en ce moment, je n’ai donc rien modifié. Merci de réessayer dans un instant.
database-disk-full = Refusé : le disque de ma base de données est plein, je n’ai donc rien modifié. L’opérateur du bot doit libérer de la place.
database-read-only = Refusé : ma base de données est en lecture seule pour l’instant, je n’ai donc rien modifié. L’opérateur du bot doit la rendre de nouveau accessible en écriture.
database-unavailable = Je ne parviens pas à joindre ma base de données pour l’instant, je n’ai donc rien modifié. Merci de réessayer plus tard.

## Pendules
more-time-given = { $player } donne à { $opponent } { $days ->
    [one] { $days } jour de plus
   *[other] { $days } jours de plus
}.
clock-line = Pendules : { $white } { $white_left }, { $black } { $black_left }.
clock-flag = Le drapeau { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    } tombe le { $deadline } UTC.
clock-none = Pas de pendule.
duration-days = { $d } j { $h } h
duration-hours = { $h } h { $m } min
duration-minutes = { $m } min
refused-not_flagged = Aucun drapeau n’est tombé.
refused-more_time_out_of_range = On peut donner de 1 à 30 jours.
refused-no_clock = Cette partie n’a pas de pendule.
outage-credited = Le bot a été indisponible pendant { $duration } : dans la partie n° { $game }, la pendule { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    } a été créditée de ce temps.
reminder = { $player }, c’est à vous de jouer dans la partie n° { $game } : il vous reste { $left }.
notify-channel = Les avis de trait et les rappels vous mentionneront dans le salon de la partie.
notify-direct = Les avis de trait et les rappels arriveront en message privé.
notify-off = Plus de rappels ; les coups sont toujours annoncés dans le salon.

## Congés
leave-started = Vous êtes en congé jusqu’au { $until } : vos pendules sont arrêtées. Il vous reste { $left } { $left ->
        [one] jour
       *[other] jours
    } de congé cette année.
leave-ended = Bon retour : vos pendules tournent à nouveau. Il vous reste { $left } { $left ->
        [one] jour
       *[other] jours
    } de congé cette année.
leave-status-on = Vous êtes en congé jusqu’au { $until }. Il vous reste { $left } { $left ->
        [one] jour
       *[other] jours
    } de congé cette année.
leave-status-off = Vous n’êtes pas en congé. Il vous reste { $left } { $left ->
        [one] jour
       *[other] jours
    } de congé cette année.
leave-none = Vous n’êtes pas en congé.
leave-already = Vous êtes déjà en congé ; /leave end y met fin.
leave-too-long = Il ne vous reste que { $left } { $left ->
        [one] jour
       *[other] jours
    } de congé cette année.
leave-notice = { $player } est en congé jusqu’au { $until } : sa pendule est arrêtée dans la partie n° { $game }.
leave-back = { $player } est de retour de congé : sa pendule tourne à nouveau dans la partie n° { $game }.
server-back = pawnpost est de retour sur ce serveur : la pendule de la partie n° { $game } tourne à nouveau ({ $player } au trait).
channel-gone = Le salon de la partie n° { $game } a été supprimé : ses annonces vous arrivent désormais ici. Continuez dans n’importe quel salon du serveur en nommant la partie : /coup partie:{ $game }.

## Discord
cmd-move = Jouer un coup dans votre partie
cmd-challenge = Défier un joueur (ou n'importe qui ici)
cmd-accept = Accepter un défi
cmd-decline = Refuser un défi
cmd-cancel = Retirer votre défi
cmd-rematch = Après une partie terminée : la même, couleurs inversées
cmd-draw = Proposer, accepter ou refuser la nulle
cmd-claim = Réclamer la nulle par triple répétition ou règle des cinquante coups
cmd-resign = Abandonner la partie
cmd-abort = Annuler la partie (avant que chaque camp ait joué)
cmd-board = Afficher l’échiquier
cmd-moves = Afficher les coups joués
cmd-pgn = Recevoir la partie en fichier PGN
cmd-games = Lister vos parties en cours
cmd-standings = Afficher le classement du serveur
cmd-leave = Prendre un congé : vos pendules s'arrêtent dans toutes vos parties ici
cmd-moretime = Donner des jours de plus à votre adversaire
cmd-settings = Votre langue et votre notation, où vous recevez les avis de trait, vos congés
cmd-help = Comment jouer avec le bot
cmd-status = Pour les modérateurs : les avis que le bot n’a pas pu remettre ici
cmd-gif = Recevoir toute la partie en GIF animé
cmd-rating = Voir la cote d'un joueur et son évolution
cmd-record = Voir le bilan d'un joueur contre un autre
cmd-note = Une note privée sur une partie (vous seul la voyez)
opt-text = Ce qu’il faut noter
cmd-openings = Les ouvertures les plus jouées du serveur et leurs scores
cmd-review = Analyse d’une partie terminée par le moteur : précision, erreurs, graphique
cmd-team = Les équipes du serveur, qui jouent en consultation et en rencontres
cmd-vote = Votre vote sur le coup de votre équipe, visible par vous seul jusqu’au coup
cmd-match = Rencontres entre équipes, ici ou sur un autre serveur : créer, accepter, rejoindre, lancer, voir…
opt-match = Le numéro de la rencontre (la dernière du serveur par défaut)
opt-against = L’équipe que votre équipe affronte
opt-server = L’id du serveur de l’autre équipe, si ce n’est pas celui-ci
opt-boards = Le nombre maximal d’échiquiers, deux parties chacun (4 par défaut)
opt-team = Le nom de l’équipe
opt-change_vote = Un membre peut-il changer son vote avant le coup (par défaut : oui)
cmd-puzzle = Les problèmes du serveur, tirés de ses parties : le suivant, une réponse, les solveurs
cmd-takeback = Parties amicales : demander à reprendre votre dernier coup, ou répondre à la demande
cmd-if = Coups conditionnels : s’il joue ceci, répondre cela (vous seul les voyez)
opt-moves = Son coup, votre réponse, et ainsi de suite, par ex. e5 Cf3 Cc6 Fb5
opt-move = Le coup, par ex. e4, Cf3, O-O, e8=D
opt-offer_draw = Proposer la nulle avec ce coup
opt-game = Le numéro de la partie (seulement si vous en avez plusieurs ici)
opt-challenge = Le numéro du défi (6 pour le défi C6)
opt-user = Le joueur à défier (personne : n'importe qui ici peut accepter)
opt-color = La couleur souhaitée
opt-time = Cadence, par ex. 3d, 30d+1d, 10/50d, none
opt-rated = Compter la partie au classement
opt-fen = Partir de cette position (FEN)
opt-pgn = Continuer une partie commencée ailleurs (son PGN ou ses coups)
opt-variant = Les règles : échecs classiques ou Chess960 (départ tiré au sort)
opt-start = Un départ Chess960 par son numéro, de 0 à 959 (518 est la position habituelle)
opt-kind = Ce que vous réclamez
opt-days = Nombre de jours
opt-language = La langue des réponses et de la notation
opt-pages = Si les pages du serveur sont sur le web
choice-on = Sur le web
choice-hidden = Hors du web (les liens des parties restent valables)
opt-notify = Où vous recevez les avis de trait et les rappels
opt-notation = La notation dans laquelle vous écrivez vos coups
opt-season = Une saison de la configuration du serveur (aucune : toutes les parties)
opt-player = Le joueur
opt-opponent = Son adversaire (personne : vous)
choice-white = Blancs
choice-black = Noirs
choice-random = Au hasard
choice-standard = Échecs classiques
choice-chess960 = Chess960
choice-threefold = Triple répétition
choice-fifty = Règle des cinquante coups
choice-en = Anglais
choice-fr = Français
choice-default = La langue du serveur
choice-english = Anglaise
choice-french = Française
choice-german = Allemande
choice-auto = Toutes les notations (je demande quand un texte peut désigner deux coups)
choice-channel = Une mention dans le salon de la partie
choice-direct = Un message privé
choice-off = Pas de rappels
discord-text-in-file = Le texte entier est dans le fichier joint { $file }.
discord-button-challenge-accept = Accepter
discord-button-challenge-decline = Refuser
discord-button-draw-accept = Accepter la nulle
discord-button-draw-decline = Refuser la nulle
discord-button-board = Échiquier
discord-button-draw-offer = Proposer la nulle
discord-button-resign = Abandonner
discord-button-resign-confirm = Oui, j'abandonne
discord-resign-confirm = Voulez-vous vraiment abandonner la partie n° { $game } ?
discord-servers-only = pawnpost joue dans les serveurs : utilisez cette commande dans un salon d'un serveur que nous partageons.
discord-rate-limited = Vous envoyez des commandes un peu vite : merci d'attendre une minute avant de réessayer.
discord-unknown-button = Ce bouton ne fait plus rien.
discord-done = C'est fait.
discord-not-installed = pawnpost n’est pas installé sur ce serveur : il ne pourrait jamais y publier les annonces d’une partie. Demandez aux administrateurs du serveur de l’ajouter, ou jouez sur un serveur où il est.
discord-private-undelivered = Je n’ai pas pu vous répondre en privé à temps et vos messages privés sont fermés : relancez la commande pour voir la réponse.
discord-answered-privately = Réponse envoyée en privé.
## competitions
rating-current = { $player } : cote { $rating } (écart { $deviation }, { $games } { $games ->
        [one] partie classée
       *[other] parties classées
    })
rating-chess960 = Chess960 : cote { $rating } (écart { $deviation }, { $games } { $games ->
        [one] partie classée
       *[other] parties classées
    })
rating-chart-title = { $player } : historique de la cote
rating-chart-x = Date
rating-chart-y = Cote
rating-unknown = Je ne connais pas encore { $player } ici.
rating-change = { $player } { $before } → { $after } ({ $delta })
standings-png-title = Classement
team-standings-png-title = Classement des équipes (parties en consultation)
standings-png-percent-value = { $value } %
standings-png-header-rank = #
standings-png-header-player = Joueur
standings-png-header-played = Jouées
standings-png-header-won = Gagnées
standings-png-header-drawn = Nulles
standings-png-header-lost = Perdues
standings-png-header-points = Points
standings-png-header-percent = %
season-unknown = Il n’y a pas de saison nommée { $season }.
record-line = { $player } contre { $opponent } : { $won } { $won ->
        [one] gagnée
       *[other] gagnées
    }, { $drawn } { $drawn ->
        [one] nulle
       *[other] nulles
    }, { $lost } { $lost ->
        [one] perdue
       *[other] perdues
    }
## Images de l’échiquier
gif = Partie n° { $game } : { $white } – { $black }, { $plies } { $plies ->
        [one] demi-coup
       *[other] demi-coups
    }.
gif-failed = Impossible de dessiner l’animation de la partie n° { $game }.
gif-sampled = Partie longue : l’animation montre { $frames } de ses { $positions } { $positions ->
        [one] position
       *[other] positions
    }, à intervalles réguliers, dont la première et la dernière.
gif-busy = Votre animation précédente est encore en cours de dessin : merci de l’attendre avant d’en demander une autre.
gif-later = Vous pouvez demander { $limit ->
    [one] { $limit } animation
   *[other] { $limit } animations
} par heure : merci de réessayer dans { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}.

## ladder
ladder-header = Échelle de défis (on peut défier jusqu’à { $places } { $places ->
        [one] place
       *[other] places
    } au-dessus de soi) :
ladder-line = { $place }. { $player }
ladder-empty = Personne n'est encore sur l'échelle : /echelle rejoindre pour y monter le premier.
ladder-png-title = Échelle de défis
ladder-png-place = Place
ladder-png-player = Joueur
ladder-joined = { $player } rejoint l'échelle à la place { $place }.
ladder-left = { $player } quitte l'échelle ; tous ceux d'en dessous remontent d'une place.
ladder-already-on = Vous êtes déjà sur l'échelle.
ladder-not-on = { $player } n'est pas sur l'échelle.
ladder-not-above = { $player } n'est pas au-dessus de vous sur l'échelle.
ladder-too-far = { $player } est trop haut : vous pouvez défier au plus { $places } { $places ->
        [one] place
       *[other] places
    } au-dessus de vous.
ladder-busy = { $player } a déjà un défi d'échelle en cours.
ladder-challenged = Défi d’échelle C{ $challenge } : { $player } (place { $from }) défie { $opponent } (place { $to }). { $opponent }, acceptez sous { $days } { $days ->
        [one] jour
       *[other] jours
    } (/accepter C{ $challenge }), sinon vous perdez votre place par forfait.
ladder-climbed = Échelle : { $player } prend la place { $place } à { $opponent }.
ladder-forfeit = Échelle : { $opponent } n'a pas relevé le défi ; { $player } prend la place { $place } par forfait.
ladder-unchanged = Échelle : rien ne change entre { $player } et { $opponent }.
ladder-withdrawn = Défi d'échelle retiré : rien ne change.
ladder-game-started = La partie d'échelle n° { $game } commence : { $white } (Blancs) contre { $black } (Noirs). { $turn }, à vous de jouer.
ladder-inactive-dropped = { $player }, vous n'avez joué aucune partie d’échelle depuis { $days } { $days ->
        [one] jour
       *[other] jours
    } : vous descendez à la place { $place }.
ladder-inactive-removed = { $player }, vous n'avez joué aucune partie d’échelle depuis { $days } { $days ->
        [one] jour
       *[other] jours
    } : vous êtes retiré de l'échelle (vous étiez à la place { $place }).
cmd-ladder = L'échelle de défis : la voir, y entrer, la quitter, défier un joueur au-dessus

## tournament
tournament-system-round_robin = toutes rondes
tournament-system-double_round_robin = toutes rondes aller-retour
tournament-system-swiss = système suisse
tournament-system-knockout = élimination directe
tournament-system-scheveningen = Scheveningen
tournament-rated = parties classées
tournament-unrated = parties non classées
tournament-created = { $player } a créé le tournoi { $tournament } : { $system }, cadence { $time }, { $rated }, départages { $tiebreaks }. Inscription : /tournoi rejoindre id:{ $id }.
tournament-none = Aucun tournoi ici. Créez-en un avec /tournoi creer <système>.
tournament-list-header = Tournois ouverts ou en cours (inscrivez-vous avec /tournoi rejoindre #<numéro>) :
tournament-list-line = { $tournament } : { $system }, { $time }, { $players ->
    [one] { $players } joueur
   *[other] { $players } joueurs
}, { $state ->
    [entry] inscriptions ouvertes
   *[running] en cours
}
tournament-list-line-elsewhere = { $tournament } : { $system }, { $time }, { $players ->
    [one] { $players } joueur
   *[other] { $players } joueurs
}, { $state ->
    [entry] inscriptions ouvertes
   *[running] en cours
} (serveur du club { $platform } { $server } ; vous jouez d’ici)
tournament-entry-closed = Les inscriptions au tournoi { $tournament } sont closes.
tournament-already-in = Vous êtes déjà inscrit au tournoi { $tournament }.
tournament-not-in = Vous ne jouez pas dans le tournoi { $tournament }.
tournament-full = Le tournoi { $tournament } est complet.
tournament-system-full = Le tournoi { $tournament } est complet : ce système ({ $system }) accepte au plus { $max } { $max ->
        [one] joueur
       *[other] joueurs
    } ici.
tournament-max-too-high = Ce système ({ $system }) accepte au plus { $max } { $max ->
        [one] joueur
       *[other] joueurs
    } ici, pas { $asked }.
tournament-joined = { $player } s’est inscrit au tournoi { $tournament } ({ $players } { $players ->
        [one] joueur
       *[other] joueurs
    }).
tournament-left = { $player } s’est désinscrit du tournoi { $tournament } ({ $players } { $players ->
        [one] joueur
       *[other] joueurs
    }).
tournament-not-organiser = Seuls l’organisateur et les modérateurs peuvent lancer le tournoi { $tournament }.
tournament-too-few = Le tournoi { $tournament } ne peut pas commencer avec { $players } { $players ->
        [one] joueur
       *[other] joueurs
    } : il en faut au moins { $min }.
tournament-odd-teams = Le tournoi { $tournament } ne peut pas commencer : le Scheveningen demande un nombre pair de joueurs ({ $players } { $players ->
        [one] inscrit
       *[other] inscrits
    }).
tournament-too-many = Le tournoi { $tournament } ne peut pas commencer avec { $players } { $players ->
        [one] joueur
       *[other] joueurs
    } : ce système ({ $system }) en accepte au plus { $max } ici.
tournament-started = Le tournoi { $tournament } commence avec { $players } { $players ->
        [one] joueur
       *[other] joueurs
    }. Têtes de série : { $seeds }.
tournament-teams = Équipe A : { $a }. Équipe B : { $b }.
tournament-round = Tournoi { $tournament } : la ronde { $round } est appariée.
tournament-your-games = Vos parties du tournoi n° { $tournament } :
tournament-game = Tournoi n° { $tournament }, ronde { $round } : partie n° { $game }, { $white } (Blancs) – { $black } (Noirs).
tournament-bye = Ronde { $round } : { $player } est exempt.
tournament-finished = Le tournoi { $tournament } est terminé. Vainqueur : { $winner } !
tournament-withdraw-not-started = Le tournoi { $tournament } n’a pas commencé : utilisez /tournoi quitter.
tournament-over = Le tournoi { $tournament } est terminé.
tournament-withdrawn-annulled = { $player } a abandonné le tournoi { $tournament } avant d’avoir joué la moitié de ses parties : ses résultats sont annulés.
tournament-withdrawn-forfeits = { $player } a abandonné le tournoi { $tournament } : ses parties restantes sont perdues par forfait (+/-, sans effet sur la cote).
tournament-pairings-header = Tournoi { $tournament } : appariements
tournament-pairings-round = Ronde { $round }
tournament-pairing = { $board }. { $white } – { $black } (partie n° { $game }) { $result }
tournament-pairing-bye = { $player } : exempt ({ $points })
tournament-pairings-none = Pas encore d’appariements.
tournament-crosstable-header = Tournoi { $tournament } : grille américaine après la ronde { $round }
tournament-col-player = Joueur
tournament-col-round = R{ $round }
tournament-cell-white = b
tournament-cell-black = n
tournament-cell-bye = exempt
tournament-col-points = Pts
# Colonnes des départages : les sigles de la FIDE (C.07), le nombre de victoires en mots.
tournament-col-de = DE
tournament-col-win = Vict.
tournament-col-won = Gagn.
tournament-col-bh = BH
tournament-col-bh-c1 = BH-C1
tournament-col-bh-c2 = BH-C2
tournament-col-bh-m1 = BH-M1
tournament-col-sb = SB
tournament-col-sb-c1 = SB-C1
cmd-tournament = Tournois (toutes rondes, suisse, élimination directe, Scheveningen)
cmd-tournament-create = Créer un tournoi dans ce salon
cmd-tournament-join = S’inscrire à un tournoi avant son début
cmd-tournament-leave = Se désinscrire d’un tournoi avant son début
cmd-tournament-start = Lancer un tournoi (organisateur ou modérateur)
cmd-tournament-pairings = Voir les appariements d’un tournoi
cmd-tournament-standings = Voir la grille d’un tournoi
cmd-tournament-withdraw = Abandonner un tournoi en cours
cmd-tournament-list = Les tournois de ce serveur et de son club
opt-system = Système d’appariement
opt-name = Nom du tournoi
opt-rounds = Nombre de rondes (suisse)
opt-max = Nombre maximal de joueurs
opt-entry = Jours avant le début automatique
opt-bye = Points pour une exemption (suisse)
opt-tiebreaks = Départages dans l’ordre, sigles de la FIDE : p. ex. BH-C1,BH,SB,DE,WIN
opt-tournament = Numéro du tournoi
opt-round = Numéro de la ronde
choice-round_robin = Toutes rondes
choice-double_round_robin = Toutes rondes aller-retour
choice-swiss = Suisse
choice-knockout = Élimination directe
choice-scheveningen = Scheveningen
cmd-play = Défis, revanches, nulles, abandon, temps en plus, reprises, coups conditionnels, votes
cmd-game = L’échiquier, les coups, le PGN et le GIF de vos parties, analyses, notes privées
cmd-club = Classement, cotes, bilans, ouvertures, problèmes et échelle du serveur
cmd-draw-offer = Proposer la nulle
cmd-draw-accept = Accepter la nulle proposée par votre adversaire
cmd-draw-decline = Refuser la nulle proposée par votre adversaire
cmd-if-add = Ajouter une ligne : son coup, votre réponse, etc. (vous seul la voyez)
cmd-if-list = Voir vos coups conditionnels dans une partie
cmd-if-clear = Effacer vos coups conditionnels dans une partie
cmd-ladder-show = Voir l’échelle
cmd-ladder-join = Entrer dans l’échelle
cmd-ladder-leave = Quitter l’échelle
cmd-ladder-challenge = Défier un joueur au-dessus de vous dans l’échelle
cmd-leave-start = Commencer un congé : vos pendules s’arrêtent autant de jours
cmd-leave-end = Terminer votre congé plus tôt
cmd-leave-status = Vos congés de l’année : pris et restants
cmd-match-show = Voir le tableau d’une rencontre
cmd-match-create = Proposer une rencontre à une autre équipe, ici ou sur un autre serveur
cmd-match-accept = Accepter une rencontre pour votre équipe
cmd-match-join = S’inscrire à une rencontre
cmd-match-start = Lancer une rencontre
cmd-match-withdraw = Retirer votre équipe (ses parties en cours sont perdues)
cmd-notes = Vos notes privées sur une partie
cmd-puzzle-next = Le problème suivant
cmd-puzzle-answer = Répondre au problème reçu
cmd-puzzle-solvers = Les solveurs de problèmes du serveur
cmd-settings-language = Votre langue pour les réponses et la notation
cmd-settings-server-language = Pour les modérateurs : la langue du serveur pour les messages publics
cmd-settings-notify = Où vous recevez les avis de trait et les rappels
cmd-settings-notation = La notation de vos coups : anglaise, française, allemande ou auto
cmd-settings-web = Pour les modérateurs : les pages du serveur (classement, tournois, joueurs) sur le web, ou non
cmd-takeback-request = Demander à reprendre votre dernier coup
cmd-takeback-accept = Accepter la reprise demandée par votre adversaire
cmd-takeback-decline = Refuser la reprise demandée par votre adversaire
cmd-team-list = Lister les équipes du serveur et de son club
cmd-team-create = Créer une équipe (vous en êtes le premier membre)
cmd-team-join = Rejoindre une équipe
cmd-team-leave = Quitter une équipe
cmd-team-delete = Supprimer une équipe (son créateur ou un modérateur)
cmd-vote-move = Voter pour le coup de votre équipe
cmd-vote-draw = Voter pour un coup avec proposition de nulle
cmd-vote-resign = Voter l’abandon
cmd-vote-accept = Voter pour accepter la nulle
opt-command = Une commande, par ex. nulle ou tournoi creer
opt-reviews = Quand les analyses de ses parties peuvent être demandées
choice-anytime = Dès qu’une partie se termine
choice-after_round = Une fois toute la ronde de la partie terminée
choice-one = 1 point
choice-half = ½ point
choice-zero = 0 point

## Remise des avis
status-notices = Avis depuis { $days } { $days ->
        [one] jour
       *[other] jours
    } sur ce serveur : { $refused } { $refused ->
        [one] n’a pas pu être remis
       *[other] n’ont pas pu être remis
    }, { $waiting } en attente d’un nouvel essai.
edit-not-carried-out = Cette commande a déjà été exécutée : la modifier n’y change rien. Envoyez plutôt un nouveau message.
status-last-refusal = Dernier refus : { $error }

## Coups conditionnels
move-played-conditional = { $player } a joué { $san } dans la partie n° { $game } (coup conditionnel).
if-stored = Enregistré dans la partie n° { $game }, visible par vous seul :
if-list = Vos coups conditionnels dans la partie n° { $game }, visibles par vous seul :
if-none = Vous n’avez pas de coups conditionnels dans la partie n° { $game }. Enregistrez-en avec /si e5 Cf3 (s’il joue e5, vous répondez Cf3).
if-cleared = Vos coups conditionnels de la partie n° { $game } sont effacés.
if-played = { $player }, votre coup conditionnel { $san } a été joué dans la partie n° { $game }, en réponse à { $theirs }.
if-game-over = La partie n° { $game } est terminée : plus de coups conditionnels.
if-too_short = Une suite comprend son coup et votre réponse, par exemple /si e5 Cf3.
if-ends_with_their_move = Une suite se termine par votre réponse : que joueriez-vous après le dernier coup ?
if-too_long = Une suite compte au plus { $max ->
    [one] { $max } coup
   *[other] { $max } coups
}.
if-too_many = Vous pouvez garder au plus { $max ->
    [one] { $max } suite
   *[other] { $max } suites
} par partie ; /si effacer pour recommencer.
if-other_reply = Une autre de vos suites répond déjà { $stored } à cet endroit. Un coup de l’adversaire n’a qu’une réponse : /si effacer pour la changer.
if-bad_move = Coup { $at } de la suite : { $refusal }

## Notes privées
note-kept = Note gardée sur la partie n° { $game }, visible par vous seul (/notes pour les lire ; elles sont dans votre /pgn).
notes-none = Vous n’avez pas de notes sur la partie n° { $game }. Écrivez-en une avec /note <texte>.
notes-list = Vos notes sur la partie n° { $game }, visibles par vous seul :
note-at-start = avant le premier coup :
note-after = après { $move } :

## Statistiques d’ouvertures
openings-none = Aucune partie terminée ici n’a encore d’ouverture nommée.
openings-header = Ouvertures de { $games } { $games ->
    [one] partie terminée
   *[other] parties terminées
} ici (gains des Blancs, nulles, gains des Noirs ; score des Blancs) :
openings-line = { $eco } { $name } : { $games ->
    [one] { $games } partie
   *[other] { $games } parties
}, +{ $white } ={ $draws } −{ $black } ({ $score } %)
openings-png-title = Ouvertures jouées
openings-png-header-eco = ECO
openings-png-header-opening = Ouverture
openings-png-header-games = Parties
openings-png-header-white = 1-0
openings-png-header-draws = ½-½
openings-png-header-black = 0-1
openings-png-header-score = Blancs

## Reprises de coup (parties amicales seulement)
takeback-requested = { $player } demande à reprendre son dernier coup. { $opponent } : /reprise accepter ou /reprise refuser.
takeback-declined = { $player } refuse la reprise.
taken-back = { $plies ->
    [one] Le dernier coup { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    } est repris.
   *[other] Le dernier coup { INITIAL($player) ->
        [vowel] d’{ $player }
       *[other] de { $player }
    } et la réponse sont repris.
}
refused-nothing_to_take_back = Vous n’avez pas de coup à reprendre.
refused-takeback_already_requested = Une reprise est déjà demandée dans cette partie.
refused-no_takeback_request = Il n’y a pas de reprise à accepter ou refuser.
refused-takeback_not_allowed = Les reprises de coup sont réservées aux parties amicales : jamais dans les parties classées, de tournoi, d’échelle ou de rencontre par équipes.

## Analyse des parties terminées par le moteur (/review)
review-no-finished-game = Vous n’avez pas de partie terminée à analyser dans ce salon ; désignez-en une avec game:N.
review-running = La partie n° { $game } est en cours : elle pourra être analysée une fois terminée.
review-no-moves = La partie n° { $game } s’est terminée avant le moindre coup : il n’y a rien à analyser.
review-after-round = La partie n° { $game } fait partie d’un tournoi dont l’organisateur réserve les analyses à la fin de chaque ronde : redemandez quand toutes les parties de sa ronde seront terminées.
review-too-long = La partie n° { $game } est trop longue pour être analysée ({ $max ->
    [one] { $max } coup
   *[other] { $max } coups
} au plus).
review-no-engine = Ce bot n’a pas de moteur d’échecs et ne peut donc pas analyser de parties. Son opérateur peut installer Stockfish et régler [analysis] engine.
review-busy = { $waiting ->
    [one] { $waiting } analyse est déjà en cours
   *[other] { $waiting } analyses sont déjà en cours
} ; merci de redemander dans quelques minutes.
review-failed = Le moteur a échoué pendant l’analyse de la partie n° { $game } ; merci de réessayer plus tard.
review-engines-busy = { $max ->
    [one] Le moteur est occupé par une autre analyse ({ $max } à la fois ici) ; merci de redemander dans quelques minutes.
   *[other] Les { $max } moteurs analysent déjà d’autres parties ; merci de redemander dans quelques minutes.
}
review-timed-out = Le moteur a dépassé { $seconds ->
    [one] { $seconds } seconde
   *[other] { $seconds } secondes
} sur la partie n° { $game } : il a été arrêté et rien n’a été gardé ; merci de réessayer plus tard.
review-header = Analyse par le moteur de la partie n° { $game } ({ $white } – { $black }), { $engine } à { $nodes ->
    [one] { $nodes } nœud
   *[other] { $nodes } nœuds
} par position :
review-side = { $side } ({ $player }) : précision { $accuracy } %, perte moyenne { $acpl ->
    [one] { $acpl } centipion
   *[other] { $acpl } centipions
}, { $inaccuracies ->
    [one] { $inaccuracies } imprécision
   *[other] { $inaccuracies } imprécisions
}, { $mistakes ->
    [one] { $mistakes } erreur
   *[other] { $mistakes } erreurs
}, { $blunders ->
    [one] { $blunders } gaffe
   *[other] { $blunders } gaffes
}
review-side-white = Blancs
review-side-black = Noirs
review-blunder = Gaffe : { $move }{ $best ->
    [none] {""}
   *[other] {""} ({ $best } était meilleur)
}
review-mistake = Erreur : { $move }{ $best ->
    [none] {""}
   *[other] {""} ({ $best } était meilleur)
}
review-chart-title = Évaluation
review-chart-x = Coup
review-chart-y = Chances des Blancs (%)
review-chart-inaccuracy = Imprécision
review-chart-mistake = Erreur
review-chart-blunder = Gaffe

## Les problèmes du serveur (/puzzle)
puzzle-none = Aucun problème ne vous attend ici. Les problèmes viennent des gaffes des parties analysées de ce serveur (/review).
puzzle-none-open = Vous n’avez pas de problème en cours : /puzzle vous en donne un.
puzzle-shown = Problème n° { $puzzle }, tiré de la partie n° { $game } : les { $side } jouent et gagnent. Répondez avec /puzzle <coup>.
puzzle-solved = Résolu ! { $answer } gagne (problème n° { $puzzle }). /puzzle pour le suivant.
puzzle-missed = Pas { $answer } : le coup gagnant était { $solution } (problème n° { $puzzle }). /puzzle pour le suivant.
puzzle-solvers-none = Personne n’a encore répondu à un problème ici.
puzzle-solvers-header = Solveurs de problèmes ici (résolus sur tentés) :
puzzle-solvers-line = { $rank }. { $player } : { $solved } sur { $tried }
puzzle-solvers-png-title = Solveurs de problèmes
puzzle-solvers-png-rank = n°
puzzle-solvers-png-player = Joueur
puzzle-solvers-png-solved = Résolus
puzzle-solvers-png-tried = Tentés

## Équipes (/equipe) et parties en consultation (/vote)
team-created = { $player } a créé l’équipe { $team } et en est le premier membre. Les autres la rejoignent avec /equipe rejoindre { $team }.
team-exists = Il existe déjà une équipe nommée { $team } ici.
team-not-found = Aucune équipe ne s’appelle { $team } ici : /equipe liste les montre.
team-joined = { $player } a rejoint l’équipe { $team }.
team-left = { $player } a quitté l’équipe { $team }.
team-deleted = { $player } a supprimé l’équipe { $team }.
team-already-member = Vous êtes déjà dans l’équipe { $team }.
team-not-member = Vous n’êtes pas dans l’équipe { $team }.
team-none-joined = Vous n’êtes dans aucune équipe ici.
team-which = Vous êtes dans plusieurs équipes : nommez celle à quitter, par exemple /equipe quitter { $teams }.
team-full = L’équipe { $team } compte déjà { $max ->
    [one] { $max } membre
   *[other] { $max } membres
}.
team-too-many = Ce serveur compte déjà { $max ->
    [one] { $max } équipe
   *[other] { $max } équipes
}.
team-delete-refused = Seuls le créateur de l’équipe { $team } et les modérateurs peuvent la supprimer.
team-plays = L’équipe { $team } joue une partie : elle pourra être supprimée une fois ses parties terminées.
team-list-empty = Pas encore d’équipe ici. Créez-en une avec /equipe creer <nom>.
team-list-header = Les équipes d’ici :
team-list-line = { $team } ({ $count ->
    [one] { $count } membre
   *[other] { $count } membres
}) : { $members }
team-list-more = …et { $count ->
    [one] { $count } autre
   *[other] { $count } autres
}.
# Une équipe d’un autre serveur du club, après sa ligne : `discord:1001`.
team-list-from = (de { $server })
team-challenge-not-member = Seuls les membres de l’équipe { $team } peuvent lancer un défi en son nom : /equipe rejoindre { $team }.
team-challenge-same = Un camp ne peut pas jouer contre lui-même.
team-challenge-member-opponent = { $player } fait partie de l’équipe { $team } et ne peut donc pas jouer contre elle.
team-challenge-per-move = Une partie en consultation se joue avec un temps par coup, comme time:3d ou time:12h : chaque vote d’une équipe se clôt quand son temps est écoulé.
vote-game-line = Une partie en consultation : les membres d’une équipe votent chacun de ses coups avec /vote <coup> ; le coup qui a le plus de voix est joué quand le temps de l’équipe est écoulé, ou dès que tous ses membres ont voté. Les votes { $changeable ->
    [yes] peuvent être changés jusque-là
   *[other] sont définitifs
}, et secrets jusqu’au coup.
vote-your-move = L’équipe { $player } a le trait : ses membres votent avec /vote <coup>.
vote-cast = Votre vote dans la partie n° { $game } : { $choice }. Vous seul le voyez jusqu’à ce que le coup soit joué. Votes exprimés dans l’équipe { $team } : { $cast } sur { $members }.
vote-changed = Votre vote dans la partie n° { $game } est désormais : { $choice }. Vous seul le voyez jusqu’à ce que le coup soit joué. Votes exprimés dans l’équipe { $team } : { $cast } sur { $members }.
vote-same = Vous avez déjà voté { $choice } dans la partie n° { $game }.
vote-final = Vous avez déjà voté sur ce coup dans la partie n° { $game }, et les votes de cette partie ne peuvent pas être changés.
vote-no-game = Aucune de vos équipes ne joue de partie ici. /equipe liste montre les équipes ; /echiquier <partie> montre une partie.
vote-reminder = { $player }, l’équipe { $team } a le trait dans la partie n° { $game } : il lui reste { $left }. Votez avec /vote <coup>.
vote-which-game = Vos équipes jouent plusieurs parties ici ; ajoutez game:<n°> à votre vote : { $games }
vote-not-member = Vous n’êtes pas dans l’équipe qui a le trait dans la partie n° { $game }.
vote-not-your-turn = Ce n’est pas au tour de votre équipe dans la partie n° { $game } : votez quand ce le sera.
vote-opponent = Vous jouez contre cette équipe dans la partie n° { $game } : vous ne pouvez pas voter pour elle.
vote-closed = Le temps de ce coup est écoulé dans la partie n° { $game } : les voix sont en cours de décompte.
vote-choice-move = { $san }
vote-choice-move-draw = { $san } avec proposition de nulle
vote-choice-resign = abandonner
vote-choice-accept = accepter la nulle
vote-tally = Votes de l’équipe { $player } : { $votes }.
vote-tally-move = { $san } { $votes }
vote-tally-resign = abandon { $votes }
vote-tally-accept = accepter la nulle { $votes }
vote-tally-offers = { $votes } avec proposition de nulle
match-created = Rencontre par équipes n° { $match } proposée : { $home } contre { $away }, jusqu’à { $boards ->
    [one] { $boards } échiquier
   *[other] { $boards } échiquiers
} de deux parties (une avec chaque couleur), { $time }. { $elsewhere ->
    [yes] Un membre de l’équipe { $away } l’accepte sur son serveur avec /match accepter { $match }, dans le salon d’où son équipe jouera.
   *[other] Un membre de l’équipe { $away } l’accepte avec /match accepter { $match }, dans le salon d’où son équipe jouera.
} Les membres des deux équipes s’inscrivent avec /match rejoindre { $match }.
match-not-found = Il n’y a pas de rencontre par équipes n° { $match } ici.
match-none = Pas encore de rencontre par équipes ici. Proposez-en une avec /match creer equipe:<votre équipe> contre:<l’autre équipe> [serveur:<id de son serveur>] echiquiers:4.
match-server-unknown = Je ne suis pas sur un serveur { $server } ici, ou personne ne m’y a encore utilisé.
match-team-not-found = Aucune équipe ne s’appelle { $team } sur ce serveur.
match-team-several = Plusieurs serveurs du club ont une équipe nommée { $team } : { $servers }. Nommez le sien avec serveur:, comme serveur:{ $first }.
match-accepted-already = La rencontre n° { $match } ({ $home } contre { $away }) a déjà été acceptée.
match-accept-refused = Seul un membre de l’équipe { $away } (ou un modérateur), sur son propre serveur, peut accepter la rencontre n° { $match }.
match-accepted = { $player } a accepté la rencontre n° { $match } pour l’équipe { $away } : { $home } contre { $away }. Les membres des deux équipes s’inscrivent avec /match rejoindre { $match }.
match-signup-closed = Les inscriptions à la rencontre n° { $match } ({ $home } contre { $away }) sont closes.
match-join-not-member = Seuls les membres des équipes { $home } et { $away } s’inscrivent à la rencontre n° { $match }, chacun sur le serveur de son équipe.
match-join-both = Vous êtes dans les deux équipes, { $home } et { $away } : vous ne pouvez pas vous inscrire à la rencontre n° { $match }.
match-already-joined = Vous êtes déjà inscrit à la rencontre n° { $match }.
match-joined = { $player } s’est inscrit pour l’équipe { $team } à la rencontre n° { $match } ({ $count ->
    [one] { $count } joueur
   *[other] { $count } joueurs
} pour l’instant).
match-not-accepted = La rencontre n° { $match } attend que l’équipe { $away } l’accepte.
match-start-refused = Seul le membre qui a proposé la rencontre n° { $match } ou un modérateur de son serveur peut la lancer.
match-too-few = La rencontre n° { $match } demande au moins un joueur inscrit de chaque côté.
match-started = La rencontre n° { $match } commence : { $home } contre { $away } sur { $boards ->
    [one] { $boards } échiquier
   *[other] { $boards } échiquiers
}, appariés par classement, deux parties par échiquier :
match-board-line = Échiquier { $board } : partie n° { $game }, { $white } ({ $white_rating }) avec les Blancs contre { $black } ({ $black_rating })
match-not-joined = Vous n’êtes pas inscrit à la rencontre n° { $match }.
match-withdrawn = { $player } s’est retiré de la rencontre n° { $match }.
match-withdrawn-forfeits = { $player } s’est retiré de la rencontre n° { $match } : { $count ->
    [one] { $count } partie encore en cours est perdue
   *[other] { $count } parties encore en cours sont perdues
}.
match-table-header = Rencontre par équipes n° { $match } : { $home } { $home_points } – { $away_points } { $away } ({ $state ->
    [proposed] en attente de l’acceptation de l’équipe { $away }
    [signup] inscriptions ouvertes
    [running] { $running ->
        [one] { $running } partie en cours
       *[other] { $running } parties en cours
    }
   *[other] terminée
})
match-signed-up = { $team } : { $count ->
    [0] { $count } joueur inscrit pour l’instant
    [one] { $count } joueur inscrit : { $players }
   *[other] { $count } joueurs inscrits : { $players }
}
match-score = Rencontre n° { $match } : { $home } { $home_points } – { $away_points } { $away } ({ $running ->
    [one] { $running } partie en cours
   *[other] { $running } parties en cours
}).
match-result = La rencontre par équipes n° { $match } est terminée : { $home } { $home_points } – { $away_points } { $away }. { $drawn ->
    [yes] La rencontre est nulle.
   *[other] L’équipe { $winner } remporte la rencontre.
}
match-png-title = Rencontre par équipes
match-png-header-board = Échiquier
match-png-header-first = { $home } avec les Blancs
match-png-header-second = { $home } avec les Noirs
match-png-header-score = Score { $home }–{ $away }
match-png-total = Total
match-table-legend = Scores lus { $home }–{ $away }, la partie où le joueur de { $home } a les Blancs d’abord :
match-board-row = { $board }. { $home } – { $away } : { $games } (échiquier { $home_points }–{ $away_points })
match-table-total = Total : { $home } { $home_points } – { $away_points } { $away }

## Pages web (issue 43)
web-link = Page : { $url }
web-settings-on = Les pages de ce serveur (classement, échelle, ouvertures, tournois, matchs par équipes, joueurs) sont désormais sur le web.
web-settings-off = Les pages de ce serveur ne sont plus sur le web (les parties restent accessibles par leurs liens).
web-to-move = { $player } au trait
web-flag-at = Chute du drapeau :
web-live-over = La partie est terminée.
web-live = En direct
web-board = Échiquier
web-first = Position de départ (Début)
web-prev = Coup précédent (←)
web-next = Coup suivant (→)
web-last = Dernière position (Fin)
web-flip = Retourner l’échiquier
web-rated = classée
web-casual = amicale
web-download-pgn = Télécharger le PGN
web-download-gif = Télécharger le GIF
web-review = Analyse du moteur
web-accuracy = Précision
web-eval-graph = Courbe d’évaluation
web-server = Serveur
web-rating-chart = Cote
web-empty = Rien pour l’instant.
web-more = Plus de parties
web-white = Blancs
web-black = Noirs
web-result = Résultat
web-crosstable = Grille
web-round = Ronde { $round }
web-boards = Échiquiers
web-rank = #
web-player = Joueur
web-games = Parties
web-points = Points
web-score = Score
web-standings = Classement
web-ladder = Échelle
web-opening = Ouverture
web-white-wins = Gains des Blancs
web-draws = Nulles
web-black-wins = Gains des Noirs
web-openings = Ouvertures
web-tournaments = Tournois
web-tournament = Tournoi
web-games-list = Parties, en cours d’abord, puis les dernières terminées
web-ongoing = en cours

## Comptes liés, parties partout, le résumé quotidien (ticket 44)
cmd-link = Lier vos comptes : obtenez un code à usage unique ici, tapez-le sur votre autre plateforme
cmd-unlink = Séparer ce compte du joueur auquel il est lié
cmd-settings-timezone = Votre fuseau horaire (un nom IANA comme Europe/Paris) pour le résumé quotidien
cmd-settings-digest = Un résumé quotidien à cette heure locale (HH:MM), ou aucun
opt-link_code = Le code obtenu avec /link sur votre autre compte
opt-zone = Un nom de fuseau IANA, comme Europe/Paris ou America/New_York ; UTC pour aucun
opt-at = Une heure locale HH:MM (sur 24 heures), ou aucun
opt-scope = Quelles parties : ici, partout (tous serveurs et plateformes) ou terminées
choice-here = Les parties en cours sur ce serveur
choice-everywhere = Les parties en cours sur tous les serveurs et plateformes
choice-finished = Les parties terminées, les plus récentes d’abord
link-code = Votre code de liaison : { $code } (valable { $minutes } { $minutes ->
        [one] minute
       *[other] minutes
    }, une seule fois). Sur votre compte de l’autre plateforme, tapez : /link { $code } — ne le montrez à personne.
link-code-kept = Un code de liaison vous a été montré pour cette demande. Tapez de nouveau /link pour en obtenir un autre.
link-done = Comptes liés : ce compte et { $other } ({ $platform }) sont désormais un seul joueur : une langue, un réglage de notifications, un résumé et une seule liste de parties (/games everywhere).
link-too-many-tries = Refusé : trop de codes de liaison erronés depuis une heure. Réessayez plus tard.
link-unknown-code = Refusé : ce code de liaison est inconnu, déjà utilisé ou expiré. Demandez-en un nouveau avec /link sur votre autre compte.
link-same-account = Refusé : ce code a été créé par ce compte ou un compte qui lui est lié ; tapez-le sur votre autre plateforme.
link-same-platform = Refusé : les deux comptes sont sur la même plateforme ; liez des comptes de deux plateformes.
link-already-linked = Refusé : ce compte est déjà lié à un autre ; faites d’abord /unlink.
link-platform-taken = Refusé : ce joueur a déjà un compte lié sur cette plateforme.
unlink-done = Compte délié : ce compte est de nouveau un joueur à part entière.
unlink-not-linked = Ce compte n’est lié à aucun autre.
games-everywhere-none = Vous n’avez aucune partie en cours, sur aucun serveur.
games-everywhere-header = Vos parties en cours, partout :
games-everywhere-line = n° { $game } { $white } – { $black } : { $yours ->
    [yes] à vous de jouer
   *[other] { $player } au trait
}, { $left } restant — { $where }
games-finished-none = Vous n’avez aucune partie terminée.
games-finished-header = Vos parties terminées, les plus récentes d’abord :
games-finished-line = n° { $game } { $white } – { $black } : { $result } ({ $ended }) — { $where }
games-no-clock = sans pendule
timezone-unknown = Refusé : je ne connais pas ce fuseau horaire. Donnez un nom IANA comme Europe/Paris, America/New_York ou Asia/Tokyo (ou UTC).
timezone-set = Votre fuseau horaire est désormais { $zone } (il y est { $time }).
digest-set = Votre résumé quotidien viendra à { $time } ({ $zone }) en message privé sur { $platform }, quand il y aura quelque chose à dire.
digest-off = Plus de résumé quotidien.
digest-header = Votre résumé du jour : { $moves } { $moves ->
        [one] partie
       *[other] parties
    } où c’est à vous de jouer, { $finished } { $finished ->
        [one] partie terminée
       *[other] parties terminées
    }, { $challenges } { $challenges ->
        [one] défi
       *[other] défis
    } en attente.
digest-your-move = À vous de jouer (les plus urgentes d’abord) :
digest-move-line = • n° { $game } { $white } – { $black } : { $left } restant — { $where }
digest-finished = Terminées depuis le dernier résumé :
digest-finished-line = • n° { $game } { $white } – { $black } : { $result }
digest-challenges = Défis qui vous attendent :
digest-challenge-line = • n° { $id } : { $player } vous défie
cmd-club-invite = Pour les modérateurs : inviter un serveur de toute plateforme dans le club de ce serveur
cmd-club-join = Pour les modérateurs : accepter l’invitation d’un club pour ce serveur
cmd-club-quit = Pour les modérateurs : ce serveur quitte son club (les parties en cours se terminent normalement)
cmd-club-servers = Les serveurs du club de ce serveur, membres et invités
opt-platform = La plateforme du serveur invité
opt-guest = L’identifiant du serveur invité : serveur Discord, ou espace Matrix (!abc:example.org)
opt-club = Le numéro du club, donné par son invitation
choice-discord = Discord
choice-matrix = Matrix
choice-console = La console
club-invite-self = Refusé : nommez un autre serveur que celui-ci.
club-already-member = Ce serveur est déjà membre de ce club.
club-guest-taken = Refusé : ce serveur est membre d’un autre club ; il doit d’abord le quitter.
club-invited = Le club n° { $club } invite le serveur { $platform } { $server }. Un modérateur de ce serveur le rejoint en y tapant : /club join { $club }
club-not-invited = Refusé : ce serveur n’a pas d’invitation au club n° { $club }. Un modérateur d’un serveur membre doit d’abord l’inviter (/club invite).
club-quit-first = Refusé : ce serveur est membre d’un autre club ; faites d’abord /club quit.
club-joined = Ce serveur a rejoint le club n° { $club }, avec { $servers } : un seul classement pour tous.
club-left = Ce serveur a quitté le club n° { $club }. Ses parties restent les siennes ; les parties en cours se terminent normalement.
club-none = Ce serveur n’est dans aucun club.
club-servers-header = Les serveurs du club n° { $club } :
club-server-line = • { $platform } { $server } : { $member ->
    [yes] membre
   *[other] invité
}
challenge-cross-no-club = Refusé : ce serveur n’est dans aucun club, il ne peut donc pas défier un joueur d’une autre plateforme. Un modérateur peut en former un avec /club invite.
challenge-cross-unknown = Refusé : je ne connais pas ce joueur sur cette plateforme ; il doit y avoir déjà utilisé le bot.
challenge-cross-hint = Acceptez avec /accept { $challenge } dans un salon d’un serveur du club, d’où vous jouerez la partie.
opt-member = Un membre du club sur une autre plateforme : matrix:@ann:example.org ou discord:<id>
