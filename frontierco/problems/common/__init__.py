"""What every problem family shares: the problem descriptor and checker verdict, the declarations a family makes,
input checks, text reading and instance fingerprints."""
