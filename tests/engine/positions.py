"""Positions for the engine's tests, picked from seeded random games and checked by hand:
in each the side to move has a decision that wins at once among others that do not."""

#: game -> (position text, the notations of the decisions that win at once)
WIN_IN_ONE = {
    # Clear has taken three; dark's c2 shoots d1 and also wins by its fourth capture.
    "tessella": ("clear:cd45,d1,d3,e5 dark:a4,a5,ab23,b4,c2 dark", ("c2xd1",)),
    # White's g6 h5 i6 and a new stone make four around h6; the rank stone set there reaps
    # south and places white's last rank stone (three such turns win).
    "tulaga": ("black:a1,a8,b6,c6,e3,f3,g2,g7,i1,i5,i9 white:b2,b7,d4,e8,e9,f8,g6,h5,i6 "
               "black-rank:c2,f7,h3 white-rank:b5,d7,e2,h8 piles:1+3,3+2 rank-stones:6 white",
               ("g5*g5g6h5i6@h6>S", "h7*g6h5h7i6@h6>S", "i7*g6h5i6i7@h6>S")),
    # Blue has seven pyramids home and a stack of five on a3, next to the Center Zone.
    "telec": ("a3=b65321,b5=r2 blue::7 red:6:10 blue turn", ("a3-cz",)),
    # Red's pawn on l6 is walled in but for l5: yellow's pawn stepping there leaves red
    # without a legal move (B-5).
    "teblo": ("yellow:k5:0:b1,g1,a3,g3,l3,e4,g4,i4,d5,k5,f6,h6,k6,i7,l7,a8,f8,a9,c9,g9,e10,"
              "l10,f11,j11,k11 red:l6:0:k2,f3,i3,k3,b4,c4,a5,b6,d6,c7,f7,g7,h7,k7,e8,l8,b9,j9,"
              "a11,c11,e11,i11,l11,c12,j12 yellow", ("k5-l5",)),
    # Dark's f4 to f2 attacks light's Prime on e2 and leaves light no legal turn (D-10).
    "tesulda": ("light:b1=Ssssz,i1=Ssdh,e2=Ckzh,b4=Sssd,g6=Cc dark:g1=Tsssdd,f4=Cssshh,d5=Sssh,"
                "b6=Ckcss,g7=Cz,c8=Ccc,e9=Cshh,h9=Czz,i9=Tcsh,d10=Scdd,g10=Sccc pool:rrccccccc"
                "ccccccccccccccccssssssssssssssddzzzhhhhhhhhhh dark", ("f4-f2",)),
}
