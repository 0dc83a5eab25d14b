Route #1: 1 2
Route #2: 3
Cost 100
