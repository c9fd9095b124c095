# A puzzle written by hand for the tests, in the form PuzzleGeometry's --gap
# writes (moves named M_M_...): four two-sticker pieces on a ring turned by
# T; F swaps the first two pieces, turning them over.  The pieces holding
# stickers 3 and 7 look alike (ip).
M_M_T:=(1,3,5,7)(2,4,6,8);
M_M_F:=(1,4)(2,3);
Gen:=[
M_M_T,M_M_F
];
ip:=[[1],[3,7],[5]];
# Size(Group(Gen));
Size(Stabilizer(Group(Gen), ip, OnTuplesSets));
